import { isSoftwareRenderer } from '../../common/terminal/terminal-renderer';
import type { WebglProbe } from '../../common/terminal/terminal-renderer';

let probed: WebglProbe | undefined;
let lost = false;

/**
 * The page's WebGL 2, probed once (common/terminal/terminal-renderer.ts): a context asked for with
 * `failIfMajorPerformanceCaveat` (the browser refuses it where only a software rasterizer would draw it), then the
 * renderer's name checked against the known software ones. Each probe context is released at once (a page gets a
 * few WebGL contexts only).
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
    const release = (gl: WebGL2RenderingContext | undefined) => gl?.getExtension('WEBGL_lose_context')?.loseContext();
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
    release(fast);
    release(gl);
    return probed = { available: true, hardware: fast !== undefined && !isSoftwareRenderer(renderer), renderer };
}

/** Whether a WebGL view of this page lost its context (the GPU was reset or lost): `auto` draws with the DOM from then on. */
export function webglLostInPage(): boolean {
    return lost;
}

export function noteWebglLost(): void {
    lost = true;
}
