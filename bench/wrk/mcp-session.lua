-- wrk script for a stateful MCP endpoint (the gateway benchmark): the thread
-- opens its own session (initialize, then notifications/initialized, with the
-- session id the server gave), then every request is the same tools/call POST
-- but for its id, which counts up. While the session is being opened the
-- thread's other connections wait (delay) instead of opening sessions of their own.
-- Arguments (after `--`): the tools/call body before the id, the body after it,
-- the protocol version to ask for, and optionally a file that keeps the session id
-- between runs (a warm-up run opens the session, the measured runs reuse it and
-- send only calls).
-- done() prints one JSON line: {"requests" (tools/call answers only), "seconds",
-- "rpcErrors", "socketErrors", "non2xx", "p50us", "p99us", "sessions"}.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local head, tail, version, id
local opening = false
local session = nil
local initialised = false
-- Requests that were not tools/call (initialize, the initialized notification).
handshake = 0
sessions = 0
rpc_errors = 0

local session_file

local function use(value)
  session = value
  if value ~= "none" then wrk.headers["mcp-session-id"] = value end
end

function init(args)
  head = args[1]
  tail = args[2]
  version = args[3]
  session_file = args[4]
  -- Ids differ between runs that share a session (a bridge routes answers by id):
  -- runs start seconds apart, each from its own base.
  id = (os.time() % 100000) * 100000
  wrk.method = "POST"
  if session_file then
    local f = io.open(session_file, "r")
    if f then
      local kept = f:read("*l")
      f:close()
      if kept and kept ~= "" then
        use(kept)
        initialised = true
      end
    end
  end
end

function delay()
  if session ~= nil then return 0 end
  -- The first connection opens the session; the others start once it is open.
  if not opening then
    opening = true
    return 0
  end
  return 200
end

function request()
  if session == nil then
    handshake = handshake + 1
    return wrk.format(nil, nil, nil, string.format(
      '{"jsonrpc":"2.0","id":"open-%d","method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}',
      handshake, version))
  end
  if not initialised then
    initialised = true
    handshake = handshake + 1
    return wrk.format(nil, nil, nil, '{"jsonrpc":"2.0","method":"notifications/initialized"}')
  end
  id = id + 1
  return wrk.format(nil, nil, nil, head .. id .. tail)
end

function response(status, headers, body)
  if session == nil then
    for name, value in pairs(headers) do
      if string.lower(name) == "mcp-session-id" then
        use(value)
        sessions = sessions + 1
      end
    end
    -- A stateless server gives no session id: the calls go without one.
    if session == nil then use("none") end
    if session_file then
      local f = io.open(session_file, "w")
      f:write(session, "\n")
      f:close()
    end
    return
  end
  if string.find(body, '"error":{"code":', 1, true) then
    rpc_errors = rpc_errors + 1
  end
end

function done(summary, latency, requests)
  local rpc, extra, opened = 0, 0, 0
  for _, thread in ipairs(threads) do
    rpc = rpc + thread:get("rpc_errors")
    extra = extra + thread:get("handshake")
    opened = opened + thread:get("sessions")
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"seconds":%f,"rpcErrors":%d,"socketErrors":%d,"non2xx":%d,"p50us":%d,"p99us":%d,"sessions":%d}\n',
    summary.requests - extra, summary.duration / 1e6, rpc, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(99), opened))
end
