// Shapes of the publications API: the domain's (spec 03 §3), plus releases and prices for pickers.
import type { z } from 'zod';
import type { publicationPageAnswer } from '@edu/domain/publications/publication';

export type {
  Publication,
  PublicationAuthor,
  PublicationEntryRef,
  PublicationFileRef as PublicationFile,
  PublicationMatch,
  UniquenessState,
} from '@edu/domain/publications/publication';
export {
  INTERNET_SUBTYPE_ID,
  INTERNET_MAX_FORMATTED as TEXT_MAX_FORMATTED,
  INTERNET_MIN_PLAIN as TEXT_MIN_PLAIN,
  PublicationMessages,
  UNIQUENESS_THRESHOLD,
  uniquenessStateLabels,
} from '@edu/domain/publications/publication';

/** GET /api/publication. */
export type PublicationPage = z.output<typeof publicationPageAnswer>;

export interface PublicationRelease {
  id: number;
  title: string;
  dict_service_subtype_id: number | null;
  is_hidden?: boolean;
  is_published?: boolean;
}

export interface PublicationPrice {
  id: number;
  dict_service_subtype_id: number;
  authors_num: number;
  price: number;
}

export const publicationTypeOptions = [
  { value: '1', label: 'Статья' },
  { value: '2', label: 'Методическая разработка' },
];
