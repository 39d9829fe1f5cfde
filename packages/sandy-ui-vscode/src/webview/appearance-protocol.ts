import { z } from 'zod';
import { GPU_ACCELERATION_VALUES, isFontFamilyList, optionalField, TERMINAL_FONT_SIZE_RANGE, TERMINAL_LINE_HEIGHT_RANGE, textField } from '@sandy-ui/core/common';
import type { GpuAcceleration } from '@sandy-ui/core/common';

/**
 * VS Code's terminal settings as core's terminalAppearance() read them, checked again as a page takes them (the
 * terminal tab's and the history viewer's `appearance` message): a font family only as a family list, sizes within
 * the hosts' range.
 */
export const terminalAppearanceFields = {
    cursorBlink: z.boolean(),
    cursorStyle: z.enum(['block', 'underline', 'bar']),
    fontSize: optionalField(z.number().min(TERMINAL_FONT_SIZE_RANGE.min).max(TERMINAL_FONT_SIZE_RANGE.max)),
    fontFamily: optionalField(textField(300).refine(isFontFamilyList, { message: 'is not a font-family list' })),
    lineHeight: optionalField(z.number().min(TERMINAL_LINE_HEIGHT_RANGE.min).max(TERMINAL_LINE_HEIGHT_RANGE.max)),
    gpuAcceleration: z.enum(GPU_ACCELERATION_VALUES as [GpuAcceleration, ...GpuAcceleration[]])
};
