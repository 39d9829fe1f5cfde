import { z } from 'zod';
import { noAnswerText } from './labels';

/**
 * One typed messenger for a page and its host (the VS Code plugin's webviews and their extension
 * host; any two ends of a `postMessage` channel). A protocol declares, per direction, the
 * notifications (no answer) and the requests (one answer, matched by request id) as zod schemas.
 * Everything received is parsed before a handler sees it: a page renders agent output, so what it
 * posts is hostile input. Unknown or malformed messages, replies to no pending request and failing
 * handlers are refused and logged; nothing a peer sends can throw into the receiving side.
 *
 * Wire format: a notification `{ type, ...params }`, a request `{ type, requestId, ...params }`, a
 * reply `{ type: 'reply', requestId, result }` or `{ type: 'reply', requestId, error }`.
 */

// ---------------------------------------------------------------------------------------------
// Schema helpers

export type Shape = z.ZodRawShape;

/** A string of at most `maxChars` characters, optionally of one format. */
export function textField(maxChars: number, pattern?: RegExp): z.ZodString {
    const s = z.string().max(maxChars, { message: `longer than ${maxChars} characters` });
    return pattern ? s.regex(pattern, { message: 'has an unexpected format' }) : s;
}

/** An integer in [min, max] (NaN, infinities and fractions refused). */
export function intField(min: number, max: number): z.ZodNumber {
    return z.number().int().min(min, { message: `out of range [${min}, ${max}]` }).max(max, { message: `out of range [${min}, ${max}]` });
}

/** Absent, null or undefined → undefined (JSON has no undefined). */
export function optionalField<T extends z.ZodTypeAny>(schema: T): z.ZodEffects<z.ZodOptional<z.ZodNullable<T>>, z.output<T> | undefined, z.input<T> | null | undefined> {
    return schema.nullable().optional().transform(v => v ?? undefined);
}

/**
 * An array of at most `maxItems` items: the length is checked before any item is parsed, so a huge
 * array costs nothing (zod's own `.max()` parses every item first).
 */
export function arrayField<T extends z.ZodTypeAny>(item: T, maxItems: number): z.ZodType<z.output<T>[], z.ZodTypeDef, z.input<T>[]> {
    return z.unknown()
        .superRefine((v, ctx) => {
            if (!Array.isArray(v)) {
                ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'expected an array', fatal: true });
            } else if (v.length > maxItems) {
                ctx.addIssue({ code: z.ZodIssueCode.custom, message: `more than ${maxItems} items`, fatal: true });
            }
        })
        .pipe(z.array(item)) as unknown as z.ZodType<z.output<T>[], z.ZodTypeDef, z.input<T>[]>;
}

/**
 * A value the other side produced from its own data (the host's snapshot for its page): only
 * checked to be an object, its type taken on trust. Never use it for what a page sends.
 */
export function trustedField<T extends object>(): z.ZodType<T> {
    return z.custom<T>(v => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'expected an object' });
}

/** An object with exactly these fields: unknown fields (`__proto__` and `constructor` too) are refused. */
export function exactObject<S extends Shape>(shape: S): z.ZodObject<S, 'strict'> {
    return z.object(shape).strict();
}

export const MAX_REQUEST_ID = Number.MAX_SAFE_INTEGER;
/** Request ids the requesting side allocates. */
export const requestIdField = intField(0, MAX_REQUEST_ID);

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: string };

/** Why a value was refused, as one line for a log (`message.edits.config[3].key: has an unexpected format`). */
export function describeIssue(error: z.ZodError, root = 'message'): string {
    const issue = error.issues[0];
    if (!issue) {
        return `${root}: invalid`;
    }
    const where = root + issue.path.map(p => typeof p === 'number' ? `[${p}]` : `.${p}`).join('');
    switch (issue.code) {
        case z.ZodIssueCode.unrecognized_keys:
            return `${where}.${issue.keys[0].slice(0, 40)}: unexpected field`;
        case z.ZodIssueCode.invalid_union_discriminator:
            return `${where}: unknown message type`;
        default:
            return `${where}: ${issue.message}`;
    }
}

/** Parse one message, or say why not (the caller logs it and drops the message; nothing throws). */
export function parseMessage<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, raw: unknown): ParseResult<T> {
    try {
        const parsed = schema.safeParse(raw);
        return parsed.success ? { ok: true, message: parsed.data } : { ok: false, error: describeIssue(parsed.error) };
    } catch (e) {
        // A getter or proxy in the value (never after a structured clone, but never trusted either).
        return { ok: false, error: `message: ${e instanceof Error ? e.message : String(e)}` };
    }
}

// ---------------------------------------------------------------------------------------------
// Protocols

export interface RequestSpec<P extends Shape = Shape, R extends z.ZodTypeAny = z.ZodTypeAny> {
    params: P;
    result: R;
    /** How long the requester waits for the answer (ms); 0: as long as it takes (a user's file dialog). */
    timeoutMs?: number;
}

/** What one side sends the other. */
export interface MessageSet<N extends Record<string, Shape> = Record<string, Shape>, R extends Record<string, RequestSpec> = Record<string, RequestSpec>> {
    notifications: N;
    requests: R;
}

/** A request spec, typed (`requestSpec({ key: textField(128) }, z.string())`). */
export function requestSpec<P extends Shape, R extends z.ZodTypeAny>(params: P, result: R, timeoutMs?: number): RequestSpec<P, R> {
    return { params, result, timeoutMs };
}

/** Declare one direction's messages (names are types; `reply` is the messenger's own). */
export function messageSet<N extends Record<string, Shape> = Record<never, Shape>, R extends Record<string, RequestSpec> = Record<never, RequestSpec>>(
    set: { notifications?: N; requests?: R }
): MessageSet<N, R> {
    const notifications = (set.notifications ?? {}) as N;
    const requests = (set.requests ?? {}) as R;
    for (const type of [...Object.keys(notifications), ...Object.keys(requests)]) {
        if (type === 'reply' || Object.prototype.hasOwnProperty.call(notifications, type) && Object.prototype.hasOwnProperty.call(requests, type)) {
            throw new Error(`messageSet: "${type}" cannot be a message type`);
        }
    }
    return { notifications, requests };
}

type Keys<T> = Extract<keyof T, string>;
type ObjectOut<S extends Shape> = z.output<z.ZodObject<S, 'strict'>>;
type ObjectIn<S extends Shape> = z.input<z.ZodObject<S, 'strict'>>;

export type NotificationParams<M extends MessageSet, K extends Keys<M['notifications']>> = ObjectOut<M['notifications'][K]>;
export type RequestParams<M extends MessageSet, K extends Keys<M['requests']>> = ObjectOut<M['requests'][K]['params']>;
export type RequestResult<M extends MessageSet, K extends Keys<M['requests']>> = z.output<M['requests'][K]['result']>;

/** Every message of a set as it travels (a discriminated union on `type`). */
export type MessageOf<M extends MessageSet> =
    | { [K in Keys<M['notifications']>]: { type: K } & ObjectOut<M['notifications'][K]> }[Keys<M['notifications']>]
    | { [K in Keys<M['requests']>]: { type: K; requestId: number } & ObjectOut<M['requests'][K]['params']> }[Keys<M['requests']>];

type SendParams<S extends Shape> = ObjectIn<S>;
/** A notification's params may be left out when it has no required field (`notify('ready')`). */
type NotifyArgs<S extends Shape> = Partial<SendParams<S>> extends SendParams<S> ? [params?: SendParams<S>] : [params: SendParams<S>];

const replySchema = exactObject({
    type: z.literal('reply'),
    requestId: requestIdField,
    result: z.unknown().optional(),
    error: textField(4096).optional()
});

function variants(set: MessageSet): z.ZodDiscriminatedUnionOption<'type'>[] {
    return [
        ...Object.entries(set.notifications).map(([type, shape]) => exactObject({ ...shape, type: z.literal(type) })),
        ...Object.entries(set.requests).map(([type, spec]) => exactObject({ ...spec.params, type: z.literal(type), requestId: requestIdField }))
    ];
}

function union(options: z.ZodDiscriminatedUnionOption<'type'>[]): z.ZodTypeAny {
    if (!options.length) {
        return z.never();
    }
    return z.discriminatedUnion('type', options as [z.ZodDiscriminatedUnionOption<'type'>, ...z.ZodDiscriminatedUnionOption<'type'>[]]);
}

/** One schema for every message of a set (what `parseMessage` checks a single message against). */
export function messageSchema<M extends MessageSet>(set: M): z.ZodType<MessageOf<M>, z.ZodTypeDef, unknown> {
    return union(variants(set)) as unknown as z.ZodType<MessageOf<M>, z.ZodTypeDef, unknown>;
}

/** A protocol: what the page sends its host, and what the host sends the page. */
export interface Protocol<ToHost extends MessageSet = MessageSet, ToView extends MessageSet = MessageSet> {
    /** For logs: `sandy settings`. */
    name: string;
    toHost: ToHost;
    toView: ToView;
}

// ---------------------------------------------------------------------------------------------
// The messenger

/** How a messenger reaches the other side. */
export interface MessagePort {
    post(message: unknown): void;
}

export interface MessengerOptions {
    /** Where refusals and failures go (the host's log; the page's console). Never shown to the peer. */
    log(text: string): void;
    /** Default answer timeout of requests (ms; default 30 s). */
    timeoutMs?: number;
    /** The name in log lines; default the protocol's. */
    name?: string;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const MAX_ERROR_CHARS = 4096;

/** A request that failed on the other side, was not answered in time, or whose messenger was disposed. */
export class MessengerError extends Error {
    constructor(message: string, readonly reason: 'remote' | 'timeout' | 'disposed' | 'invalid') {
        super(message);
        this.name = 'MessengerError';
    }
}

interface Pending {
    type: string;
    result: z.ZodTypeAny;
    resolve(value: unknown): void;
    reject(error: Error): void;
    timer?: ReturnType<typeof setTimeout>;
}

type Handler = (params: never) => unknown;

/**
 * One end of a protocol: sends `Out`, receives `In`. Feed it every raw message with
 * {@link receive}; it never throws from there.
 */
export class Messenger<Out extends MessageSet, In extends MessageSet> {
    protected readonly incoming: z.ZodTypeAny;
    protected readonly pending = new Map<number, Pending>();
    protected readonly notificationHandlers = new Map<string, Handler>();
    protected readonly requestHandlers = new Map<string, Handler>();
    protected nextId = 1;
    protected disposed = false;
    protected readonly name: string;

    constructor(protected readonly sets: { out: Out; in: In }, protected readonly port: MessagePort, protected readonly options: MessengerOptions) {
        this.incoming = union([...variants(sets.in), replySchema]);
        this.name = options.name ?? 'messenger';
    }

    /** The host's end of a protocol. */
    static forHost<H extends MessageSet, V extends MessageSet>(protocol: Protocol<H, V>, port: MessagePort, options: MessengerOptions): Messenger<V, H> {
        return new Messenger({ out: protocol.toView, in: protocol.toHost }, port, { name: protocol.name, ...options });
    }

    /** The page's end of a protocol. */
    static forView<H extends MessageSet, V extends MessageSet>(protocol: Protocol<H, V>, port: MessagePort, options: MessengerOptions): Messenger<H, V> {
        return new Messenger({ out: protocol.toHost, in: protocol.toView }, port, { name: protocol.name, ...options });
    }

    notify<K extends Keys<Out['notifications']>>(type: K, ...params: NotifyArgs<Out['notifications'][K]>): void {
        this.send({ ...params[0], type });
    }

    request<K extends Keys<Out['requests']>>(type: K, params: SendParams<Out['requests'][K]['params']>): Promise<RequestResult<Out, K>> {
        if (this.disposed) {
            return Promise.reject(new MessengerError(`${this.name}: ${type} after dispose`, 'disposed'));
        }
        const spec = this.sets.out.requests[type];
        const id = this.nextId++;
        return new Promise<RequestResult<Out, K>>((resolve, reject) => {
            const pending: Pending = { type, result: spec.result, resolve: resolve as (v: unknown) => void, reject };
            const timeoutMs = spec.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
            if (timeoutMs > 0) {
                pending.timer = setTimeout(() => {
                    this.pending.delete(id);
                    this.options.log(`${this.name}: ${type} (request ${id}) was not answered within ${timeoutMs} ms`);
                    reject(new MessengerError(noAnswerText(type, timeoutMs), 'timeout'));
                }, timeoutMs);
            }
            this.pending.set(id, pending);
            this.send({ ...params, type, requestId: id });
        });
    }

    onNotification<K extends Keys<In['notifications']>>(type: K, handler: (params: NotificationParams<In, K>) => void | Promise<void>): void {
        this.notificationHandlers.set(type, handler as Handler);
    }

    onRequest<K extends Keys<In['requests']>>(type: K, handler: (params: RequestParams<In, K>) => RequestResult<In, K> | Promise<RequestResult<In, K>>): void {
        this.requestHandlers.set(type, handler as Handler);
    }

    /** One raw message from the other side: parsed, then handed to its handler or its pending request. */
    receive(raw: unknown): void {
        if (this.disposed) {
            return;
        }
        const parsed = parseMessage(this.incoming, raw);
        if (!parsed.ok) {
            this.options.log(`${this.name}: refused a message: ${parsed.error}`);
            return;
        }
        const message = parsed.message as { type: string; requestId?: number } & Record<string, unknown>;
        if (message.type === 'reply') {
            this.settle(message as z.output<typeof replySchema>);
            return;
        }
        const { type, requestId: id, ...params } = message;
        if (id === undefined) {
            const handler = this.notificationHandlers.get(type);
            if (!handler) {
                this.options.log(`${this.name}: no handler for ${type}`);
                return;
            }
            this.run(type, () => handler(params as never)).catch(e => this.options.log(`${this.name}: ${type} failed: ${errorText(e)}`));
            return;
        }
        const handler = this.requestHandlers.get(type);
        if (!handler) {
            this.options.log(`${this.name}: no handler for ${type}`);
            this.send({ type: 'reply', requestId: id, error: `${type} is not answered here.` });
            return;
        }
        this.run(type, () => handler(params as never)).then(
            result => this.send({ type: 'reply', requestId: id, result }),
            e => {
                this.options.log(`${this.name}: ${type} failed: ${errorText(e)}`);
                this.send({ type: 'reply', requestId: id, error: errorText(e).slice(0, MAX_ERROR_CHARS) });
            }
        );
    }

    /** Pending requests fail ('disposed'); later messages are ignored. */
    dispose(): void {
        this.disposed = true;
        for (const [id, pending] of [...this.pending]) {
            this.pending.delete(id);
            clearTimeout(pending.timer);
            pending.reject(new MessengerError(`${this.name}: closed before ${pending.type} was answered`, 'disposed'));
        }
        this.notificationHandlers.clear();
        this.requestHandlers.clear();
    }

    /** Requests still waiting for their answer (for tests and diagnostics). */
    get pendingCount(): number {
        return this.pending.size;
    }

    protected settle(reply: z.output<typeof replySchema>): void {
        const pending = this.pending.get(reply.requestId);
        if (!pending) {
            this.options.log(`${this.name}: refused a reply to no pending request (${reply.requestId})`);
            return;
        }
        this.pending.delete(reply.requestId);
        clearTimeout(pending.timer);
        if (reply.error !== undefined) {
            pending.reject(new MessengerError(reply.error, 'remote'));
            return;
        }
        const result = pending.result.safeParse(reply.result);
        if (!result.success) {
            const why = describeIssue(result.error, `${pending.type} result`);
            this.options.log(`${this.name}: refused a reply: ${why}`);
            pending.reject(new MessengerError(why, 'invalid'));
            return;
        }
        pending.resolve(result.data);
    }

    protected async run(type: string, call: () => unknown): Promise<unknown> {
        return call();
    }

    protected send(message: Record<string, unknown>): void {
        if (this.disposed) {
            return;
        }
        try {
            this.port.post(message);
        } catch (e) {
            this.options.log(`${this.name}: could not post ${String(message.type)}: ${errorText(e)}`);
        }
    }
}

function errorText(e: unknown): string {
    return e instanceof Error ? e.message : String(e);
}
