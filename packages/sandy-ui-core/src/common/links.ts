/** What a host does with a link activated in sandy's terminal (OSC 8 or a plain URL). */
export type LinkAction =
    | { kind: 'external'; url: string }
    | { kind: 'file'; url: string }
    | { kind: 'refused'; message: string };

/** Web and mail links open outside, file links in an editor; any other scheme is refused. */
export function classifyLink(uri: string): LinkAction {
    let parsed: URL;
    try {
        parsed = new URL(uri);
    } catch {
        return { kind: 'refused', message: `Sandy: not a valid link: ${uri.slice(0, 200)}` };
    }
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:' || parsed.protocol === 'mailto:') {
        return { kind: 'external', url: parsed.toString() };
    }
    if (parsed.protocol === 'file:') {
        return { kind: 'file', url: parsed.toString() };
    }
    return { kind: 'refused', message: `Sandy: links with ${parsed.protocol} are not opened.` };
}
