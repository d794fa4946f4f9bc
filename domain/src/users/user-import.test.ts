import { describe, expect, it } from 'vitest';
import { decideImport, mapHeaders, parseImportDate, parseImportRow, type ImportAccount, type ImportPerson } from './user-import.ts';

const account = (over: Partial<ImportAccount> = {}): ImportAccount => ({
  id: 7,
  email: 'a@example.com',
  phone: null,
  middle_name: null,
  organization: null,
  job_title: 'Учитель',
  region: null,
  dict_region_id: null,
  has_password: false,
  has_profile: false,
  deleted: false,
  guest: false,
  ...over,
});
const person = (over: Partial<ImportPerson> = {}): ImportPerson => {
  const parsed = parseImportRow({ last_name: 'Иванова', first_name: 'Анна', email: 'A@Example.com' });
  if (!('person' in parsed)) throw new Error(parsed.reason);
  return { ...parsed.person, ...over };
};
const lookup = { region: (n: string) => (n === 'Москва' ? 77 : undefined), profile: (n: string) => (n === 'Математика' ? 4 : undefined) };

describe('the import of people', () => {
  it('knows columns by Russian and English names, whatever the case and «ё»', () => {
    const map = mapHeaders(['ФАМИЛИЯ', ' Имя ', 'Отчество', 'email', 'Телефон', 'Хэш пароля', 'Кличка']);
    expect(map.columns).toMatchObject({ last_name: 0, first_name: 1, middle_name: 2, email: 3, phone: 4, password_hash: 5 });
    expect(map.unknown).toEqual(['Кличка']);
    expect(mapHeaders(['Имя', 'Телефон']).missing).toEqual(['last_name', 'email']);
  });

  it('reads registration dates in Moscow time and refuses impossible ones', () => {
    expect(parseImportDate('15.03.2019 10:30')?.toISOString()).toBe('2019-03-15T07:30:00.000Z');
    expect(parseImportDate('2019-03-15')?.toISOString()).toBe('2019-03-14T21:00:00.000Z');
    expect(parseImportDate('2019-03-15T10:30:00Z')?.toISOString()).toBe('2019-03-15T10:30:00.000Z');
    expect(parseImportDate('31.02.2020')).toBeNull();
    expect(parseImportDate('2020-13-01')).toBeNull();
    expect(parseImportDate('вчера')).toBeNull();
  });

  it('normalises e-mail and phone as sign-up does', () => {
    const parsed = parseImportRow({ last_name: ' Иванова ', first_name: 'Анна', email: ' A@Example.COM ', phone: '8 912 345 67 89' });
    expect(parsed).toMatchObject({ person: { last_name: 'Иванова', email: 'a@example.com', phone: '+7 (912) 345-67-89' } });
    expect(parseImportRow({ last_name: 'И', first_name: 'А', email: 'a@example.com', password_hash: 'md5:abc' })).toEqual({
      reason: 'Хеш пароля не в формате bcrypt ($2y$, $2a$ или $2b$)',
    });
  });

  it('fills only the empty fields of the account that holds the e-mail, and never merges two accounts', () => {
    const decision = decideImport(
      person({ organization: 'Школа', job_title: 'Завуч', region: 'Москва', profiles: ['Математика', 'Плавание'] }),
      account(),
      undefined,
      lookup,
    );
    expect(decision).toEqual({
      outcome: 'merged',
      accountId: 7,
      fill: { organization: 'Школа', region: 'Москва', dict_region_id: 77, profile_ids: [4] },
      notes: ['Нет такого профиля работы: «Плавание»'],
    });
    expect(decideImport(person(), account({ organization: 'Своя' }), undefined, lookup).outcome).toBe('unchanged');
    expect(decideImport(person({ phone: '+7 (900) 000-00-00' }), account(), account({ id: 8 }), lookup)).toMatchObject({ outcome: 'refused' });
    expect(decideImport(person(), account({ deleted: true }), undefined, lookup)).toMatchObject({ outcome: 'refused' });
    expect(decideImport(person(), undefined, undefined, lookup)).toEqual({ outcome: 'new', notes: [] });
  });
});
