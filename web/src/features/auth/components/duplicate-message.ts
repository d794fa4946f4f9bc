/** The server says the account already exists (spec 01 §4, Registration). */
export function isDuplicateMessage(message: string): boolean {
  return /существует|дубл|duplicate|already exists/i.test(message);
}
