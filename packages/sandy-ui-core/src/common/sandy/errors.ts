/**
 * Typed failures of talking to sandy. Every error carries a human sentence (`message`) and what the
 * user can do about it (`hint`), so every surface (tree, notification, CLI) can show one actionable
 * line without knowing the cause.
 */
export type SandyErrorCode =
    /** No sandy executable was found (configured path, PATH, usual install folders). */
    | 'not-found'
    /** A sandy file exists but cannot be executed (permissions, bad interpreter). */
    | 'not-executable'
    /** sandy did not answer within the timeout; its whole process group was killed. */
    | 'timeout'
    /** sandy printed something that is not one JSON document (CONTRACT §0.9: control characters in paths). */
    | 'invalid-json'
    /** The JSON parsed but does not have the shape of the contract. */
    | 'invalid-output'
    /** sandy exited non-zero with no usable output. */
    | 'failed'
    /** The request itself was wrong (missing argument, workspace refused). */
    | 'usage';

export class SandyError extends Error {
    constructor(
        readonly code: SandyErrorCode,
        message: string,
        /** What the user can do next. */
        readonly hint: string,
        readonly details: SandyErrorDetails = {}
    ) {
        super(message);
        this.name = 'SandyError';
    }

    /** One line for a notification or stderr: what happened, then what to do. */
    toDisplayString(): string {
        return this.hint ? `${this.message} ${this.hint}` : this.message;
    }

    toJSON(): { code: SandyErrorCode; message: string; hint: string; details: SandyErrorDetails } {
        return { code: this.code, message: this.message, hint: this.hint, details: this.details };
    }
}

export interface SandyErrorDetails {
    /** argv passed to sandy, flag first. */
    args?: readonly string[];
    exitCode?: number;
    stderr?: string;
    /** For invalid-json: the offending bytes, printable-escaped. */
    excerpt?: string;
    /** For invalid-json: byte offset of the first problem. */
    offset?: number;
}

export function isSandyError(e: unknown): e is SandyError {
    return e instanceof SandyError || (typeof e === 'object' && !!e && (e as { name?: string }).name === 'SandyError');
}
