-- wrk script for the HTTP benchmarks: every request is the same JSON-RPC POST
-- but for its id, which counts up per thread (thread n starts at n * 1e9), as a
-- real client's ids do. An answer that carries a JSON-RPC error is counted.
-- Arguments (after `--`): the body before the id, the body after it.
-- done() prints one JSON line: {"requests", "seconds", "rpcErrors", "socketErrors", "non2xx", "p50us", "p99us"}.
local threads = {}
local next_thread = 0

function setup(thread)
  thread:set("first", next_thread * 1000000000)
  next_thread = next_thread + 1
  table.insert(threads, thread)
end

local head, tail, id
rpc_errors = 0

function init(args)
  head = args[1]
  tail = args[2]
  id = first
  wrk.method = "POST"
end

function request()
  id = id + 1
  return wrk.format(nil, nil, nil, head .. id .. tail)
end

function response(status, headers, body)
  if string.find(body, '"error":{"code":', 1, true) then
    rpc_errors = rpc_errors + 1
  end
end

function done(summary, latency, requests)
  local rpc = 0
  for _, thread in ipairs(threads) do
    rpc = rpc + thread:get("rpc_errors")
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"seconds":%f,"rpcErrors":%d,"socketErrors":%d,"non2xx":%d,"p50us":%d,"p99us":%d}\n',
    summary.requests, summary.duration / 1e6, rpc, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99)))
end
