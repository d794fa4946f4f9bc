// The plain text of a publication lives in domain/ so the form's counter and the server's text
// rules (3200 plain characters for internet publications) see the same text as the uniqueness check.
export { publicationPlainText } from '@edu/domain/publications/plain-text';
