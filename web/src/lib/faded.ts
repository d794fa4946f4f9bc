import type { CSSProperties } from 'react';

/**
 * A record shown as past or removed (a held service, a deleted entry, a rejected publication): grey
 * and colourless rather than transparent, so its text keeps its AA contrast (an opacity washed it out).
 */
const FADED: CSSProperties = { filter: 'grayscale(1)', backgroundColor: 'var(--mantine-color-gray-0)' };

export const fadedStyle = (on: unknown): CSSProperties => (on ? FADED : {});
