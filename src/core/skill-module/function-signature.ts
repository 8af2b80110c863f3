import {
  tokTypes,
  tokenizer,
  type Class,
  type Function as FunctionNode,
  type MethodDefinition,
  type TokenType,
} from "acorn";
import type { ParsedModule } from "./module-javascript.js";

/** Longest signature kept, and longest parameter within it; longer ones end in `…`. */
export const MAX_SIGNATURE_CHARS = 240;
const MAX_PARAMETER_CHARS = 80;
// Tokens read from a TypeScript function's start to find its parameters' types: a bound, not a limit met.
const MAX_SIGNATURE_TOKENS = 2000;

/**
 * A function's short signature: `name(a, { b, c } = {})` for JavaScript. For TypeScript, the
 * parameters and return type as written (`name(a: number, b?: string): Promise<void>`), read from
 * the file before stripping (see {@link typedSignature}); names alone when that reading fails.
 */
export function functionSignature(module: ParsedModule, name: string, node: FunctionNode): string {
  const prefix = `${node.async ? "async " : ""}${node.generator ? "*" : ""}`;
  const typed = module.toOriginal ? typedSignature(module, node) : undefined;
  const parameters =
    typed?.parameters ?? node.params.map((parameter) => module.source.slice(parameter.start, parameter.end));
  return shorten(`${prefix}${name}(${parameters.map(clip).join(", ")})${typed?.returns ? clip(typed.returns) : ""}`);
}

/** A class's signature: `new Name(…)` with its constructor's parameters; `new Name()` without one. */
export function classSignature(module: ParsedModule, name: string, node: Class): string {
  const constructor = node.body.body.find(
    (member): member is MethodDefinition => member.type === "MethodDefinition" && member.kind === "constructor",
  );
  return constructor ? functionSignature(module, `new ${name}`, constructor.value) : `new ${name}()`;
}

/**
 * The parameters and return type of a TypeScript function as written. The function's start in
 * the file is found on the same line (see originalOffsets); from there the TypeScript is read with acorn's tokenizer, which knows strings, templates, comments
 * and regular expressions: past the type parameters to `(`, the parameters split at commas
 * outside brackets, then `: Type` up to the body. Parameters that are not the stripped
 * function's (another count, other names) or TypeScript acorn cannot read give `undefined`.
 */
function typedSignature(
  module: ParsedModule,
  node: FunctionNode,
): { parameters: string[]; returns: string } | undefined {
  const text = module.original;
  const token = lazyTokens(text, module.toOriginal!(node.start));
  try {
    const open = openingParenthesis(token);
    if (open === undefined) return undefined;
    const parameters: string[] = [];
    let depth = 0;
    let first = open + 1;
    let index = first;
    for (let current = token(index); current; current = token(++index)) {
      const closing = depth === 0 && current.type === tokTypes.parenR;
      if (depth === 0 && (closing || current.type === tokTypes.comma)) {
        if (index > first) parameters.push(text.slice(token(first)!.start, token(index - 1)!.end));
        first = index + 1;
        if (closing) break;
        continue;
      }
      depth += bracketChange(current);
    }
    const typed = parameters.filter((parameter) => !/^this\s*[:?,]|^this$/.test(parameter));
    if (!token(index) || !sameParameters(module, node, typed)) return undefined;
    return { parameters: typed, returns: returnType(token, index + 1, text, node.type === "ArrowFunctionExpression") };
  } catch {
    return undefined;
  }
}

// Whether the parameters read from the TypeScript are the stripped function's: as many, each
// starting as the stripped one does (after TypeScript's `public`, `readonly`, … modifiers).
function sameParameters(module: ParsedModule, node: FunctionNode, typed: string[]): boolean {
  if (typed.length !== node.params.length) return false;
  return node.params.every((parameter, index) => {
    const written = typed[index]!.replace(/^((public|private|protected|readonly|override)\s+)+/, "").replace(
      /\s+/g,
      "",
    );
    const head = /^[^=:,)]*/.exec(module.source.slice(parameter.start, parameter.end).replace(/\s+/g, ""))![0];
    return written.startsWith(head);
  });
}

// `: Type` from the token after `)`: up to `=>` for an arrow function, else up to the body's `{`
// (a `{` where a type starts, after `:`, `|`, `&`, `<`, `,`, `(`, `[` or `=>`, is an object type).
function returnType(token: TokenAt, start: number, text: string, arrow: boolean): string {
  if (token(start)?.type !== tokTypes.colon) return "";
  let depth = 0;
  for (let index = start + 1, current = token(index); current; current = token(++index)) {
    if (depth === 0) {
      const previous = token(index - 1)!;
      const typeStarts = /^[:|&<,([]$|^=>$/.test(previous.text);
      const end = arrow ? current.type === tokTypes.arrow : current.type === tokTypes.braceL && !typeStarts;
      if (end) return text.slice(token(start)!.start, previous.end);
    }
    depth += bracketChange(current);
  }
  return "";
}

// How a token changes the nesting: brackets of every kind, and `<`/`>` of type arguments.
function bracketChange(token: Token): number {
  const type = token.type;
  if (
    type === tokTypes.parenL ||
    type === tokTypes.bracketL ||
    type === tokTypes.braceL ||
    type === tokTypes.dollarBraceL
  )
    return 1;
  if (type === tokTypes.parenR || type === tokTypes.bracketR || type === tokTypes.braceR) return -1;
  if (type === tokTypes.relational || type === tokTypes.bitShift) {
    const value = token.text;
    if (/^<+$/.test(value)) return value.length;
    if (/^>+$/.test(value)) return -value.length;
  }
  return 0;
}

// The parameters' `(`, past `function`, the name and type parameters (`<T = () => void>`);
// `undefined` for `x => x`, a parameter without parentheses, which cannot carry a type.
function openingParenthesis(token: TokenAt): number | undefined {
  let depth = 0;
  for (let index = 0, current = token(0); current; current = token(++index)) {
    if (depth === 0 && current.type === tokTypes.parenL) return index;
    if (depth === 0 && current.type === tokTypes.arrow) return undefined;
    depth += bracketChange(current);
  }
  return undefined;
}

// A token of the TypeScript as written, its offsets in the whole file.
interface Token {
  type: TokenType;
  start: number;
  end: number;
  text: string;
}

// The tokens of `text` from `from`, read as far as asked (a function's signature is near its
// start; what follows may be TypeScript acorn cannot read). Reading throws on what it cannot.
type TokenAt = (index: number) => Token | undefined;

function lazyTokens(text: string, from: number): TokenAt {
  const tokens: Token[] = [];
  const reader = tokenizer(text.slice(from), { ecmaVersion: "latest", sourceType: "module" });
  let done = false;
  return (index) => {
    while (!done && tokens.length <= index) {
      const { type, start, end } = reader.getToken();
      if (type === tokTypes.eof || tokens.length >= MAX_SIGNATURE_TOKENS) done = true;
      else tokens.push({ type, start: from + start, end: from + end, text: text.slice(from + start, from + end) });
    }
    return tokens[index];
  };
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= MAX_PARAMETER_CHARS ? line : `${line.slice(0, MAX_PARAMETER_CHARS - 1).trimEnd()}…`;
}

function shorten(text: string): string {
  return text.length <= MAX_SIGNATURE_CHARS ? text : `${text.slice(0, MAX_SIGNATURE_CHARS - 1).trimEnd()}…`;
}
