/** Host functions the prelude takes from the global object (and deletes from it) when a context starts. */
export const HOST_FUNCTIONS = {
  log: "__skillset_host_log",
  callTool: "__skillset_host_call",
  preload: "__skillset_host_preload",
} as const;
/** Global the prelude leaves behind to make each run's `tools` object from the names the host allows. */
export const SET_TOOLS_FUNCTION = "__skillset_set_tools";
/** Global the prelude leaves behind to turn a run's value into `<length>:<JSON text cut to the limit>`. */
export const TO_JSON_FUNCTION = "__skillset_to_json";

/**
 * JavaScript run once in every new sandbox context, before any of the model's code. It keeps its own
 * copies of the built-ins it uses, and its globals cannot be replaced, so code that overwrites
 * `JSON.stringify` or `Array.prototype.push` only breaks its own calls. Every value crosses to the host as
 * a string made here (never an object), cut to `maxChars` before it crosses, so a huge log never reaches
 * the host whole.
 */
export function sandboxPrelude(maxChars: number): string {
  return `(() => {
  "use strict";
  const g = globalThis;
  const hostLog = g.${HOST_FUNCTIONS.log}, hostCall = g.${HOST_FUNCTIONS.callTool}, hostPreload = g.${HOST_FUNCTIONS.preload};
  delete g.${HOST_FUNCTIONS.log}; delete g.${HOST_FUNCTIONS.callTool}; delete g.${HOST_FUNCTIONS.preload};
  const stringify = JSON.stringify, parse = JSON.parse, toText = String, freeze = Object.freeze;
  const defineProperty = Object.defineProperty, create = Object.create, ProxyCtor = Proxy, ErrorCtor = Error, TypeErrorCtor = TypeError;
  const uncurry = Function.prototype.bind.bind(Function.prototype.call);
  const hasOwn = uncurry(Object.prototype.hasOwnProperty), slice = uncurry(String.prototype.slice);
  const then = uncurry(Promise.prototype.then);
  const MAX = ${maxChars};
  const fixed = (name, value) => defineProperty(g, name, { value, writable: false, configurable: false, enumerable: false });
  const show = (v) => {
    if (typeof v === "string") return v;
    if (v instanceof ErrorCtor) return toText(v.name) + ": " + toText(v.message);
    try { const json = stringify(v); return json === undefined ? toText(v) : json; } catch { return toText(v); }
  };
  const writer = (prefix) => (...args) => {
    let line = prefix;
    for (let i = 0; i < args.length && line.length <= MAX; i++) line += (i > 0 ? " " : "") + show(args[i]);
    const length = line.length;
    hostLog(length > MAX ? slice(line, 0, MAX) : line, length);
  };
  defineProperty(g, "console", { value: freeze({ log: writer(""), info: writer(""), warn: writer("warn: "),
    error: writer("error: "), debug: writer("debug: ") }), writable: true, configurable: true, enumerable: false });
  fixed("${SET_TOOLS_FUNCTION}", (namesJson) => {
    const names = parse(namesJson);
    // No prototype, and entries defined rather than assigned: a tool named "__proto__" or "constructor" is just a tool.
    const table = create(null);
    let available = "";
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      available += (i > 0 ? ", " : "") + name;
      defineProperty(table, name, { enumerable: true, value: freeze(async function (args) {
        const json = args === undefined ? "null" : stringify(args);
        if (json === undefined) throw new TypeErrorCtor("tools." + name + " takes one argument that can be written as JSON.");
        const result = await hostCall(name, json);
        return result === undefined ? undefined : parse(result);
      }) });
    }
    freeze(table);
    if (available === "") available = "none";
    defineProperty(g, "tools", { value: new ProxyCtor(table, {
      get(target, key) {
        if (typeof key === "string" && !hasOwn(target, key) && key !== "then" && key !== "toJSON") {
          throw new TypeErrorCtor("tools." + key + " is not a tool you can call here. Available tools: " + available + ".");
        }
        return target[key];
      },
    }), writable: true, configurable: true, enumerable: false });
  });
  fixed("${TO_JSON_FUNCTION}", (value) => {
    const json = stringify(value);
    return json === undefined ? undefined : json.length + ":" + slice(json, 0, MAX);
  });
  fixed("__skillset_import", (importer, specifier) =>
    then(hostPreload(toText(importer), toText(specifier)), (resolved) => import(resolved)));
})();`;
}
