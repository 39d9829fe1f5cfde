import { z } from 'zod';
import type { WizardAction, WizardModel } from '@sandy-ui/core/common';
import { messageSchema, messageSet, MessageOf, Protocol, textField, trustedField, WIZARD_STEPS } from '@sandy-ui/core/common';

/** Messages of the Get Started webview (core's WizardView ↔ core's WizardController in the extension host). */

export const WIZARD_VIEW_TYPE = 'sandy.getStarted';

const ID = /^[a-z][a-z0-9_-]{0,31}$/;
const KEY = /^[A-Z][A-Z0-9_]{0,127}$/;

/** Every button of the view, checked field by field: the controller still acts only on ids of its own lists. */
const action: z.ZodType<WizardAction, z.ZodTypeDef, unknown> = z.discriminatedUnion('type', [
    z.object({ type: z.literal('next') }).strict(),
    z.object({ type: z.literal('back') }).strict(),
    z.object({ type: z.literal('skip') }).strict(),
    z.object({ type: z.literal('check') }).strict(),
    z.object({ type: z.literal('goto'), step: z.enum(WIZARD_STEPS) }).strict(),
    z.object({ type: z.literal('copy'), check: textField(32, ID) }).strict(),
    z.object({ type: z.literal('run'), check: textField(32, ID) }).strict(),
    z.object({ type: z.literal('toggle-agent'), agent: textField(32, ID) }).strict(),
    z.object({ type: z.literal('toggle-proposal'), key: textField(128, KEY) }).strict(),
    z.object({ type: z.literal('auth'), agent: textField(32, ID), action: z.enum(['login', 'key']) }).strict(),
    z.object({ type: z.literal('build') }).strict(),
    z.object({ type: z.literal('toggle-log') }).strict(),
    z.object({ type: z.literal('start-test') }).strict(),
    z.object({ type: z.literal('show-session') }).strict(),
    z.object({ type: z.literal('add-project') }).strict()
]);

export const wizardToHost = messageSet({
    notifications: {
        ready: {},
        act: { action }
    }
});

export const wizardToView = messageSet({
    notifications: {
        /** The host controller's own model (its envelope is checked). */
        render: { model: trustedField<WizardModel>() }
    }
});

export const wizardProtocol: Protocol<typeof wizardToHost, typeof wizardToView> = {
    name: 'sandy get started', toHost: wizardToHost, toView: wizardToView
};

export type WizardToHost = MessageOf<typeof wizardToHost>;
export const checkWizardToHost = messageSchema(wizardToHost);
