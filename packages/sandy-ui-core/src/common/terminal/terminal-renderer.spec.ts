import { expect } from 'chai';
import { chooseTerminalRenderer, GPU_ACCELERATION_VALUES, isSoftwareRenderer } from './terminal-renderer';
import type { WebglProbe } from './terminal-renderer';

const gpu: WebglProbe = { available: true, hardware: true, renderer: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)' };
const software: WebglProbe = { available: true, hardware: false, renderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)' };
const none: WebglProbe = { available: false, hardware: false };

describe('terminal renderer (WebGL or the DOM)', () => {
    it('auto: WebGL on a GPU only, and not once this page lost a WebGL context', () => {
        expect(chooseTerminalRenderer('auto', () => gpu, false)).to.equal('webgl');
        expect(chooseTerminalRenderer('auto', () => software, false)).to.equal('dom');
        expect(chooseTerminalRenderer('auto', () => none, false)).to.equal('dom');
        expect(chooseTerminalRenderer('auto', () => gpu, true)).to.equal('dom');
    });

    it('on: WebGL wherever WebGL 2 exists (a software one too); off: never', () => {
        expect(chooseTerminalRenderer('on', () => software, false)).to.equal('webgl');
        expect(chooseTerminalRenderer('on', () => gpu, true)).to.equal('webgl');
        expect(chooseTerminalRenderer('on', () => none, false)).to.equal('dom');
        expect(chooseTerminalRenderer('off', () => gpu, false)).to.equal('dom');
        expect(chooseTerminalRenderer('off', () => expect.fail('off makes no WebGL context to probe'), false)).to.equal('dom');
    });

    it('knows the software rasterizers by the names browsers give them', () => {
        for (const name of [software.renderer, 'llvmpipe (LLVM 15.0.6, 256 bits)', 'Mesa softpipe', 'Google SwiftShader', 'Microsoft Basic Render Driver', 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (LLVM 10.0.0) (0x0000C0DE)), SwiftShader driver)']) {
            expect(isSoftwareRenderer(name), name).to.equal(true);
        }
        for (const name of [gpu.renderer, 'Apple M2', 'Mesa Intel(R) UHD Graphics 620 (KBL GT2)', 'AMD Radeon RX 6800 XT', undefined]) {
            expect(isSoftwareRenderer(name), String(name)).to.equal(false);
        }
    });

    it('the values both hosts spell', () => {
        expect(GPU_ACCELERATION_VALUES).to.deep.equal(['auto', 'on', 'off']);
    });
});
