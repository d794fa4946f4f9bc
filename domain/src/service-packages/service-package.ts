import { z } from 'zod';
import type { Service } from '../services/service.ts';

export interface ServicePackage {
  id: number;
  title: string;
  description: string | null;
  color: string;
  price: number;
  oldPrice: number | null;
  points: number;
  is_pinned: boolean;
  pinned: boolean;
  dict_profile_id: number | null;
  services: Service[];
}

/** Unpaid package entries are removed after this many minutes (spec 01 §4). */
export const PACKAGE_PAY_WINDOW_MIN = 15;

export const servicePackageListQuery = z.object({
  is_pinned: z.union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional(),
  dict_profile_id: z.union([z.literal('null'), z.literal(''), z.coerce.number().int()]).optional(),
});

/** POST /api/service-package/{id}/enroll: {services: {serviceId: sectionId | null}}. */
export const enrollBody = z.object({
  services: z.record(z.string().regex(/^\d+$/), z.coerce.number().int().positive().nullable()),
});

/** Pay is enabled only when every service with sections has one chosen (spec 01 §4). */
export function packageReady(services: Array<{ id: number; sections: unknown[] }>, chosen: Record<string, number | null | undefined>): boolean {
  return services.every((s) => s.sections.length === 0 || Boolean(chosen[String(s.id)]));
}
