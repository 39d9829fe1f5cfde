/**
 * The one way core's views build DOM: `h(tag, props, ...children)` from {@link domBuilder}.
 *
 * Agent- and workspace-controlled text (config values, file lines, paths, key names, error messages)
 * flows into these views, so the rule is structural: text only ever becomes a text node, attributes
 * are set with `setAttribute` and behaviour is attached with `addEventListener`. Nothing here parses
 * markup, and nothing lets a caller reach a markup or script sink:
 * - string children become text nodes (`<img src=x onerror=…>` shows as those characters);
 * - any attribute name may be set, except event-handler attributes (`on…`, use `on: { click }`) and
 *   the HTML sinks (`innerHTML`, `outerHTML`, `srcdoc`); URL attributes refuse `javascript:`,
 *   `vbscript:` and `data:` values;
 * - elements that run or embed content (`script`, `iframe`, `object`, `embed`, `frame`) cannot be made.
 * A refusal throws: it is a bug in the caller, not something to render around.
 */

/** What a child may be: a node, text, or nothing (skipped, as is empty text); arrays are flattened. */
export type DomChild = Node | string | number | false | null | undefined | readonly DomChild[];

/** A class list: a string of class names, or a list of them with falsy entries skipped. */
export type DomClass = string | readonly (string | false | null | undefined)[];

/**
 * An attribute value. Strings and numbers are set as text; `true` sets the attribute empty (boolean
 * attributes such as `hidden`, `disabled`, `readonly`); `false`, `null` and `undefined` leave it unset.
 * Enumerated attributes take their spelled value: `spellcheck: 'false'`, `'aria-pressed': 'true'`.
 */
export type DomAttrValue = string | number | boolean | null | undefined;

/** Listeners by event name, attached with addEventListener. */
export type DomListeners = { readonly [E in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[E]) => unknown };

/** `class`, `dataset` and `on` are what they say; every other key is an attribute name. */
export interface DomProps {
    readonly class?: DomClass;
    readonly dataset?: Readonly<Record<string, string | undefined>>;
    readonly on?: DomListeners;
    readonly [attribute: string]: DomAttrValue | DomClass | DomListeners | Readonly<Record<string, string | undefined>> | undefined;
}

/** Creates an element of `tag` with `props` and `children` (see {@link domBuilder}). */
export type DomFactory = <K extends keyof HTMLElementTagNameMap>(tag: K, props?: DomProps | null, ...children: DomChild[]) => HTMLElementTagNameMap[K];

const FORBIDDEN_TAGS: ReadonlySet<string> = new Set(['script', 'iframe', 'frame', 'object', 'embed']);
const FORBIDDEN_ATTRIBUTES: ReadonlySet<string> = new Set(['innerhtml', 'outerhtml', 'srcdoc']);
const URL_ATTRIBUTES: ReadonlySet<string> = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data']);
/** Schemes that run or smuggle content; control characters and blanks are ignored the way browsers do. */
const UNSAFE_URL = /^(?:javascript|vbscript|data):/i;

/** The class names of a {@link DomClass}, split on whitespace, empty entries dropped. */
export function classNames(value: DomClass | undefined): string[] {
    const parts = typeof value === 'string' ? [value] : (value ?? []);
    return parts.flatMap(part => (part ? part.split(/\s+/) : [])).filter(Boolean);
}

/** Sets (or, for false / null / undefined, removes) one attribute under the rules above. */
export function setAttr(element: Element, name: string, value: DomAttrValue): void {
    const lower = name.toLowerCase();
    if (lower.startsWith('on')) {
        throw new TypeError(`Refusing the event-handler attribute "${name}": pass a listener in props.on instead.`);
    }
    if (FORBIDDEN_ATTRIBUTES.has(lower)) {
        throw new TypeError(`Refusing the attribute "${name}": views never set markup.`);
    }
    if (value === false || value === null || value === undefined) {
        element.removeAttribute(name);
        return;
    }
    const text = value === true ? '' : String(value);
    if (URL_ATTRIBUTES.has(lower) && UNSAFE_URL.test(text.replace(/[\u0000-\u0020]/g, ''))) {
        throw new TypeError(`Refusing the URL "${text.slice(0, 40)}" for "${name}".`);
    }
    element.setAttribute(name, text);
}

/** Appends children: strings and numbers as text nodes, nodes as they are; arrays flattened, nothing and '' skipped. */
export function appendChildren(parent: Node, children: readonly DomChild[]): void {
    const doc = parent.ownerDocument ?? (parent as Document);
    for (const child of children) {
        if (child === null || child === undefined || child === false || child === '') {
            continue;
        }
        if (typeof child === 'string' || typeof child === 'number') {
            parent.appendChild(doc.createTextNode(String(child)));
        } else if (Array.isArray(child)) {
            appendChildren(parent, child);
        } else {
            parent.appendChild(child as Node);
        }
    }
}

/**
 * The element factory for one document (a view's `container.ownerDocument`: the page, a webview, or
 * jsdom in a spec). Example: `h('button', { class: 'primary', type: 'button', on: { click: save } }, 'Save')`.
 */
export function domBuilder(doc: Document): DomFactory {
    return <K extends keyof HTMLElementTagNameMap>(tag: K, props?: DomProps | null, ...children: DomChild[]): HTMLElementTagNameMap[K] => {
        if (FORBIDDEN_TAGS.has(String(tag).toLowerCase())) {
            throw new TypeError(`Refusing to create <${tag}>: views never run or embed content.`);
        }
        const element = doc.createElement(tag);
        if (props) {
            for (const [name, value] of Object.entries(props)) {
                if (name === 'class') {
                    const names = classNames(value as DomClass | undefined);
                    if (names.length) {
                        element.classList.add(...names);
                    }
                } else if (name === 'dataset') {
                    for (const [key, data] of Object.entries((value ?? {}) as Record<string, string | undefined>)) {
                        if (data !== undefined) {
                            element.dataset[key] = data;
                        }
                    }
                } else if (name === 'on') {
                    for (const [type, listener] of Object.entries((value ?? {}) as Record<string, (event: Event) => unknown>)) {
                        if (listener) {
                            element.addEventListener(type, listener as EventListener);
                        }
                    }
                } else {
                    setAttr(element, name, value as DomAttrValue);
                }
            }
        }
        appendChildren(element, children);
        return element;
    };
}
