import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { expect } from 'chai';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core';
import { RpcProxyFactory } from '@theia/core/lib/common/messaging/proxy-factory';
import { ApplicationError } from '@theia/core/lib/common/application-error';
import { toProblem } from '@sandy-ui/core/common';
import { SandyBackend } from '../sandy-backend';
import { SandyServiceError } from '../../common/sandy-protocol';

/** Theia's RPC rebuilds a plain Error from its message alone: a refusal must arrive with its code and hint. */
describe('SandyBackend connection errors (unit)', () => {
    let root: string;
    let saved: string | undefined;
    let backend: SandyBackend;

    beforeEach(() => {
        root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandy-rpc-')));
        saved = process.env.SANDY_IDE_DATA_DIR;
        process.env.SANDY_IDE_DATA_DIR = path.join(root, 'ide-data');
        const container = new Container();
        const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
        container.bind(ILogger).toConstantValue(quiet as unknown as ILogger).whenTargetNamed('sandy');
        container.bind(SandyBackend).toSelf().inSingletonScope();
        backend = container.get(SandyBackend);
    });
    afterEach(async () => {
        await backend.onStop();
        if (saved === undefined) {
            delete process.env.SANDY_IDE_DATA_DIR;
        } else {
            process.env.SANDY_IDE_DATA_DIR = saved;
        }
        fs.rmSync(root, { recursive: true, force: true });
    });

    it('a refused workspace reaches the browser as { code, message, hint } through the RPC encoding', async () => {
        const service = backend.connect();
        const gone = path.join(root, 'no-such-project');
        const direct = await backend.core.canonicalWorkspace(gone).then(() => undefined, (e: { code: string; message: string; hint: string }) => e);
        expect(direct?.hint, 'the refusal has a hint to carry').to.be.a('string').and.not.equal('');
        const thrown = await service.canonicalWorkspace(gone).then(() => undefined, (e: unknown) => e);
        expect(SandyServiceError.is(thrown as object), 'an ApplicationError of the sandy service').to.equal(true);

        // What Theia's proxy does on both ends of the wire (proxy-factory serializeError / deserializeError).
        const factory = new RpcProxyFactory() as unknown as {
            serializeError(e: unknown): unknown;
            deserializeError(captured: Error, e: unknown): unknown;
        };
        const wire = JSON.parse(JSON.stringify(factory.serializeError(thrown)));
        expect(wire.data.stack, 'no backend stack (file paths) crosses to the browser').to.equal('');
        expect(Object.keys(wire.data.data).sort()).to.deep.equal(['code', 'hint', 'message']);
        const { ResponseError } = await import('@theia/core/lib/common/message-rpc/rpc-message-encoder');
        const received = factory.deserializeError(new Error('captured'), new ResponseError(wire.code, wire.message, wire.data));
        expect(ApplicationError.is(received as object)).to.equal(true);
        const problem = toProblem(received);
        expect(problem).to.deep.equal({ code: direct!.code, message: direct!.message, hint: direct!.hint });
        service.dispose();
    });

    it('keeps session history out of ~/.sandy-ide, the configuration folder Theia watches recursively for every window', () => {
        const configFolder = path.join(os.homedir(), '.sandy-ide');
        const dir = backend.core.historyDir;
        expect(path.isAbsolute(dir)).to.equal(true);
        expect(path.relative(configFolder, dir).startsWith('..'), `${dir} is inside ${configFolder}`).to.equal(true);
        expect(path.relative(process.env.SANDY_IDE_DATA_DIR!, dir).startsWith('..'), 'nor in the data folder').to.equal(true);
    });
});
