import { z } from 'zod';
import { dataAnswer, listAnswer, messageAnswer } from '../common/answers.ts';

// The operators' 'Макросы' screen: the macro catalogue, the centre's requisites (${org.*}) and
// clients' names in the dative case (certificates). The answers as they go over the wire.

/** A macro category with its macros (GET /api/macros). */
export const macroCategorySchema = z.object({
  id: z.number().int(),
  fdv: z.string(),
  macros: z.array(z.object({ id: z.number().int(), fdv: z.string(), description: z.string().nullable() })),
});
export type MacroCategory = z.output<typeof macroCategorySchema>;

/** GET /api/macros. */
export const macroCategoriesAnswer = listAnswer(macroCategorySchema);

/** The centre's requisites by key (only the filled ones). */
export const requisitesSchema = z.record(z.string(), z.string());

/** GET /api/settings/requisites: the values and the form's labels. */
export const requisitesAnswer = dataAnswer(requisitesSchema).extend({ fields: z.array(z.object({ key: z.string(), label: z.string() })) });
/** PUT /api/settings/requisites. */
export const requisitesSavedAnswer = dataAnswer(requisitesSchema).extend({ message: z.string() });

/** A client found by name, with the dative form: the operator's correction (or null) and the computed one. */
export const nameFormSchema = z.object({
  id: z.number().int(),
  fio: z.string(),
  email: z.string(),
  fio_dative: z.string().nullable(),
  computed: z.string(),
});
export type NameForm = z.output<typeof nameFormSchema>;

/** GET /api/macros/name-forms?fio=. */
export const nameFormsAnswer = listAnswer(nameFormSchema);
/** GET /api/user/{id}/name-forms. */
export const userNameFormAnswer = dataAnswer(z.object({ fio_dative: z.string().nullable(), computed: z.string(), effective: z.string() }));
/** PUT /api/user/{id}/name-forms. */
export const nameFormSavedAnswer = messageAnswer;
