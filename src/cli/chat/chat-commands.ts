/** A command of the chat itself, as opposed to a message or a skill's `/name args`. */
export type ChatCommand =
  | { kind: "help" }
  | { kind: "skills" }
  | { kind: "loaded" }
  | { kind: "unload"; skill: string }
  | { kind: "exit" }
  | { kind: "usage"; message: string };

/** The chat's own commands, for `/help`. They take precedence over skills of the same name. */
export const CHAT_COMMANDS_HELP = [
  "/skills           the skills you can invoke, with their arguments",
  "/<skill> [args]   invoke a skill: the model gets its instructions with your arguments",
  "/loaded           the skills loaded in this conversation",
  "/unload <skill>   unload a skill: its instructions no longer apply",
  "/help             this list",
  "/exit             leave (also Ctrl-D); Ctrl-C stops an answer",
].join("\n");

/** Reads one of the chat's commands; `undefined` for anything else (messages, `/name args`). */
export function parseChatCommand(line: string): ChatCommand | undefined {
  const match = /^\/(help|skills|loaded|unload|exit|quit)(?:\s+(.*))?$/.exec(line.trim());
  if (!match) return undefined;
  const rest = (match[2] ?? "").trim();
  switch (match[1]) {
    case "unload":
      return /^\S+$/.test(rest)
        ? { kind: "unload", skill: rest }
        : { kind: "usage", message: "Usage: /unload <skill>" };
    case "quit":
    case "exit":
      return { kind: "exit" };
    default:
      return rest ? { kind: "usage", message: `/${match[1]} takes no arguments` } : ({ kind: match[1] } as ChatCommand);
  }
}
