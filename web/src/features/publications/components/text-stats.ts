import { internetTextProblem, publicationPlainText } from '@edu/domain/publications/publication';

/** The plain text of rich text as the server counts and checks it (markup stripped, entities decoded). */
export function plainText(html: string | null | undefined): string {
  return html ? publicationPlainText(html) : '';
}

/** Internet publication text (spec 03 §5): at least 3200 plain characters, at most 32500 formatted. */
export const textProblem = internetTextProblem;
