/**
 * How a sandy tab draws: xterm's WebGL renderer (`@xterm/addon-webgl`) where the page has a GPU behind WebGL 2,
 * xterm's DOM renderer otherwise — the choice VS Code's own terminal makes, under the same setting
 * (`terminal.integrated.gpuAcceleration`). On a real GPU the WebGL renderer draws a full screen in a fraction of
 * the DOM renderer's style, layout and paint; on a software rasterizer (SwiftShader, llvmpipe: a machine or a
 * browser without a GPU) it is slower than the DOM (`npm run bench`, test/src/bench/README.md), so `auto` keeps
 * the DOM there.
 */

/** `terminal.integrated.gpuAcceleration` as both hosts spell it. */
export type GpuAcceleration = 'auto' | 'on' | 'off';

export const GPU_ACCELERATION_VALUES: readonly GpuAcceleration[] = ['auto', 'on', 'off'];

export type TerminalRenderer = 'webgl' | 'dom';

/** What the page's WebGL 2 is, probed once per page (browser/terminal/webgl-probe.ts). */
export interface WebglProbe {
    /** A WebGL 2 context can be made at all (xterm's WebGL renderer needs version 2). */
    available: boolean;
    /** …and it is drawn by a GPU: the browser made it without a major performance caveat, and its renderer is not a known software one. */
    hardware: boolean;
    /** The renderer the browser names (`WEBGL_debug_renderer_info`), for the log; undefined where it names none. */
    renderer?: string;
}

/** Renderers that rasterize in software (Chromium's SwiftShader, Mesa's llvmpipe/softpipe, Windows' Basic Render Driver). */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render driver/i;

export function isSoftwareRenderer(renderer: string | undefined): boolean {
    return renderer !== undefined && SOFTWARE_RENDERER.test(renderer);
}

/**
 * The renderer a new view takes. `off`: the DOM. `on`: WebGL wherever WebGL 2 exists (a software one too: the
 * user asked). `auto`: WebGL only on a GPU, and not once a WebGL view of this page lost its context (the GPU
 * process crashed or reset; VS Code's terminal falls back to the DOM the same way). `probe` is asked only when
 * WebGL may be wanted: `off` (a user whose GPU driver misbehaves) makes no WebGL context at all.
 */
export function chooseTerminalRenderer(setting: GpuAcceleration, probe: () => WebglProbe, contextLostInPage: boolean): TerminalRenderer {
    if (setting === 'off') {
        return 'dom';
    }
    const webgl = probe();
    if (!webgl.available) {
        return 'dom';
    }
    if (setting === 'on') {
        return 'webgl';
    }
    return webgl.hardware && !contextLostInPage ? 'webgl' : 'dom';
}

/**
 * The setting for a host that has none of that name (Theia, whose own terminal always draws with WebGL): the
 * schema the Theia IDE adds, so the user finds it in the settings editor. VS Code defines it itself.
 */
export const GPU_ACCELERATION_SETTING = {
    key: 'terminal.integrated.gpuAcceleration',
    property: {
        type: 'string',
        enum: [...GPU_ACCELERATION_VALUES],
        enumDescriptions: [
            'WebGL where the browser draws WebGL with a GPU; the page\'s own drawing (DOM) on a software renderer and after the GPU was lost.',
            'WebGL wherever the browser offers WebGL 2, a software renderer included.',
            'Never WebGL: the page\'s own drawing (DOM).'
        ],
        default: 'auto',
        description: 'Whether sandy tabs draw with the GPU (xterm.js\'s WebGL renderer). Read from your user settings only. Theia\'s own terminal always draws with WebGL.',
        scope: 'application'
    }
} as const;
