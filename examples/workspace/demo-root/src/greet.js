// A tiny module for the demo: read it, search it, edit it with str_replace.
export function greet(name) {
  // TODO: let the caller choose the greeting.
  return `Hello, ${name}!`;
}

export function farewell(name) {
  return `Goodbye, ${name}.`;
}
