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
 * copies of the built-ins it uses, so code that replaces `JSON.stringify` or `Array.prototype.push` only
 * breaks itself. Every value crosses to the host as a string it made here (never an object), and strings
 * are cut to `maxChars` before they cross, so a huge log never reaches the host's memory whole.
 */
export function sandboxPrelude(maxChars: number): string {
  return `(() => {
  "use strict";
  const g = globalThis;
  const hostLog = g.${HOST_FUNCTIONS.log}, hostCall = g.${HOST_FUNCTIONS.callTool}, hostPreload = g.${HOST_FUNCTIONS.preload};
  delete g.${HOST_FUNCTIONS.log}; delete g.${HOST_FUNCTIONS.callTool}; delete g.${HOST_FUNCTIONS.preload};
  const stringify = JSON.stringify, parse = JSON.parse, toText = String, freeze = Object.freeze;
  const hasOwn = Object.prototype.hasOwnProperty, call = Function.prototype.call.bind(Function.prototype.call);
  const isError = (v) => v instanceof Error;
  const define = (name, value) => Object.defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });
  const MAX = ${maxChars};
  const show = (v) => {
    if (typeof v === "string") return v;
    if (isError(v)) return toText(v.name) + ": " + toText(v.message);
    try { const json = stringify(v); return json === undefined ? toText(v) : json; } catch { return toText(v); }
  };
  const writer = (prefix) => (...args) => {
    let line = prefix;
    for (let i = 0; i < args.length && line.length <= MAX; i++) line += (i > 0 ? " " : "") + show(args[i]);
    const length = line.length;
    hostLog(length > MAX ? line.slice(0, MAX + 1) : line, length);
  };
  define("console", freeze({ log: writer(""), info: writer(""), warn: writer("warn: "), error: writer("error: "), debug: writer("debug: ") }));
  define("${SET_TOOLS_FUNCTION}", (namesJson) => {
    const names = parse(namesJson);
    const table = {};
    for (const name of names) {
      table[name] = freeze(async function (args) {
        const json = args === undefined ? "null" : stringify(args);
        if (json === undefined) throw new TypeError("tools." + name + " takes one argument that can be written as JSON.");
        const result = await hostCall(name, json);
        return result === undefined ? undefined : parse(result);
      });
    }
    freeze(table);
    const available = names.length > 0 ? names.join(", ") : "none";
    define("tools", new Proxy(table, {
      get(target, key) {
        if (typeof key === "string" && !call(hasOwn, target, key) && key !== "then" && key !== "toJSON") {
          throw new TypeError("tools." + key + " is not a tool you can call here. Available tools: " + available + ".");
        }
        return target[key];
      },
    }));
  });
  define("${TO_JSON_FUNCTION}", (value) => {
    const json = stringify(value);
    return json === undefined ? undefined : json.length + ":" + json.slice(0, MAX + 1);
  });
  define("__skillset_import", (importer, specifier) =>
    hostPreload(toText(importer), toText(specifier)).then((resolved) => import(resolved)));
})();`;
}
