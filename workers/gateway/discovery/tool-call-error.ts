import { MAX_ERROR_MESSAGE_CHARS } from "../../../shared/contract/caps";
import { clip } from "./ts-syntax";

/** A name as an error message quotes it (names from code are up to 300 characters). */
export const NAME_CHARS = 60;
/** A reason (an upstream's failure, a config problem) as an error message quotes it. */
export const REASON_CHARS = 120;
/** Errors whose message is data the agent needs whole (see ToolCallError). */
const UNCUT = new Set(["ValidationError", "ToolError"]);

/**
 * A failure to hand back to code as a thrown Error (name + message): the error of a call from code
 * (tools, skills, sessions) and of discovery, defined here below every layer that throws it. Messages are written for the
 * agent: what failed and what to change, at most MAX_ERROR_MESSAGE_CHARS (a longer one is cut).
 * Two carry data and may be longer: ValidationError lists each failing path, ToolError is the
 * upstream's own error text (up to 1,000 characters).
 */
export class ToolCallError extends Error {
  constructor(
    name: string,
    message: string,
    /** the workspace path a session error is about */
    readonly path?: string,
  ) {
    super(UNCUT.has(name) ? message : clip(message, MAX_ERROR_MESSAGE_CHARS));
    this.name = name;
  }
}

/** `name` cut for quoting in an error message. */
export const quoteName = (name: string): string => clip(name, NAME_CHARS);
