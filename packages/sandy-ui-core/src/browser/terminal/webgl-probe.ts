import { isSoftwareRenderer } from '../../common/terminal/terminal-renderer';
import type { WebglProbe } from '../../common/terminal/terminal-renderer';

let probed: WebglProbe | undefined;
let lost = false;
let liveViews = 0;

/**
 * Sandy tabs of one page that draw with WebGL at once. Chromium keeps about 16 live WebGL contexts per page and
 * drops the oldest beyond (in the Theia IDE Theia's own terminals, which never recover, are among them); past this
 * many, a tab draws with the DOM.
 */
export const MAX_WEBGL_VIEWS_PER_PAGE = 8;

/**
 * The page's WebGL 2, probed once (common/terminal/terminal-renderer.ts): a context asked for with
 * `failIfMajorPerformanceCaveat` (the browser refuses it where only a software rasterizer would draw it), then the
 * renderer's name checked against the known software ones. Each probe context is released at once.
 */
export function probeWebgl(): WebglProbe {
    if (probed) {
        return probed;
    }
    const context = (options?: WebGLContextAttributes) => {
        try {
            return document.createElement('canvas').getContext('webgl2', options) ?? undefined;
        } catch {
            return undefined;
        }
    };
    const fast = context({ failIfMajorPerformanceCaveat: true });
    const gl = fast ?? context();
    if (!gl) {
        return probed = { available: false, hardware: false };
    }
    let renderer: string | undefined;
    try {
        const info = gl.getExtension('WEBGL_debug_renderer_info');
        const name: unknown = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : undefined;
        renderer = typeof name === 'string' ? name : undefined;
    } catch {
        renderer = undefined;
    }
    loseContexts([fast, gl]);
    return probed = { available: true, hardware: fast !== undefined && !isSoftwareRenderer(renderer), renderer };
}

/** Whether a WebGL view of this page lost its context (the GPU was reset or lost): `auto` draws with the DOM from then on, until the page reloads. */
export function webglLostInPage(): boolean {
    return lost;
}

export function noteWebglLost(): void {
    lost = true;
}

/** A WebGL view may start (false: the page has {@link MAX_WEBGL_VIEWS_PER_PAGE} already); {@link releaseWebglView} when it stops. */
export function acquireWebglView(): boolean {
    if (liveViews >= MAX_WEBGL_VIEWS_PER_PAGE) {
        return false;
    }
    liveViews++;
    return true;
}

export function releaseWebglView(): void {
    liveViews = Math.max(0, liveViews - 1);
}

/** The WebGL contexts of `canvases` (none for a 2D canvas). */
export function webglContextsOf(canvases: Iterable<HTMLCanvasElement>): WebGL2RenderingContext[] {
    const found: WebGL2RenderingContext[] = [];
    for (const canvas of canvases) {
        try {
            const gl = canvas.getContext('webgl2');
            if (gl) {
                found.push(gl);
            }
        } catch {
            // A canvas with another kind of context.
        }
    }
    return found;
}

/**
 * Frees contexts now rather than at garbage collection (a removed canvas keeps its context live until then, and
 * live contexts count against the page's limit).
 */
export function loseContexts(contexts: Iterable<WebGL2RenderingContext | undefined>): void {
    for (const gl of contexts) {
        try {
            if (gl && !gl.isContextLost()) {
                gl.getExtension('WEBGL_lose_context')?.loseContext();
            }
        } catch {
            // Already gone.
        }
    }
}
