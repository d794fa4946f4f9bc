import { regionsData } from '@edu/server/src/db/seed/dictionaries-data.ts';
import type { Random } from './random.ts';
import {
  cities,
  emailDomains,
  feminineLastName,
  femaleFirstNames,
  jobTitlesByProfile,
  lastNames,
  learnedFrom,
  maleFirstNames,
  patronymics,
  profileWeights,
  spbDistricts,
  streets,
  translit,
  type City,
} from './russian-data.ts';

/** One generated client, with the columns of `users` the generator fills and its work profiles. */
export interface Person {
  email: string;
  phone: string;
  last_name: string;
  first_name: string;
  middle_name: string;
  organization: string;
  job_title: string;
  learned_from_us: string | null;
  address: string;
  region: string;
  dict_region_id: number;
  country: string;
  postcode: string;
  is_spb: number;
  birthday: string;
  created_at: Date;
  profileIds: number[];
}

const regionByCode = new Map(regionsData.map((r) => [r.code, r]));
const cityWeights = cities.map((c) => [c, c.weight] as const);
const FEMALE_SHARE = 0.82; // teachers in Russia are mostly women
const HISTORY_DAYS = 3 * 365; // accounts registered over the last three years

/**
 * Makes people whose e-mails and phones are unique among themselves and against `taken`
 * (pass the e-mails and phones already in the database).
 */
export class PersonFactory {
  constructor(
    private readonly rnd: Random,
    private readonly takenEmails: Set<string>,
    private readonly takenPhones: Set<string>,
    private readonly now = new Date(),
  ) {}

  next(): Person {
    const r = this.rnd;
    const female = r.chance(FEMALE_SHARE);
    const male = r.pickSkewed(lastNames, 1.5);
    const last_name = female ? feminineLastName(male) : male;
    const first_name = female ? r.pickSkewed(femaleFirstNames) : r.pickSkewed(maleFirstNames);
    const [mp, fp] = r.pickSkewed(patronymics, 1.5);
    const middle_name = female ? fp : mp;
    const birthYear = r.int(1958, 2001);
    const city = r.weighted(cityWeights);
    const region = regionByCode.get(city.regionCode);
    if (!region) throw new Error(`dict_regions has no code ${city.regionCode}`);

    const profileCount = r.weighted([
      [1, 50],
      [2, 35],
      [3, 15],
    ] as const);
    const profileIds: number[] = [];
    while (profileIds.length < profileCount) {
      const id = r.weighted(profileWeights);
      if (!profileIds.includes(id)) profileIds.push(id);
    }
    const mainProfile = profileIds[0];

    return {
      email: this.email(last_name, first_name, middle_name, birthYear),
      phone: this.phone(),
      last_name,
      first_name,
      middle_name,
      organization: this.organization(city, mainProfile),
      job_title: r.pick(jobTitlesByProfile[mainProfile]),
      learned_from_us: r.chance(0.8) ? r.pickSkewed(learnedFrom, 1.3) : null,
      address: `${city.name}, ${r.pick(streets)}, д. ${r.int(1, 120)}, кв. ${r.int(1, 250)}`,
      region: region.fdv,
      dict_region_id: region.id,
      country: 'Россия',
      postcode: (city.postcode + String(r.int(0, 999_999))).slice(0, 6).padEnd(6, '0'),
      is_spb: city.name === 'Санкт-Петербург' ? 1 : 0,
      birthday: `${birthYear}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`,
      created_at: new Date(this.now.getTime() - r.next() * HISTORY_DAYS * 86_400_000),
      profileIds,
    };
  }

  private email(last: string, first: string, middle: string, birthYear: number): string {
    const r = this.rnd;
    const l = translit(last);
    const f = translit(first);
    const fi = f.charAt(0);
    const mi = translit(middle).charAt(0);
    const yy = String(birthYear % 100).padStart(2, '0');
    const local = r.weighted<string>([
      [`${l}.${f}`, 20],
      [`${f}.${l}`, 12],
      [`${l}${fi}${mi}`, 12],
      [`${l}_${fi}${mi}`, 8],
      [`${f}${l}${yy}`, 10],
      [`${l}${birthYear}`, 10],
      [`${fi}.${l}`, 8],
      [`${f}_${yy}`, 5],
      [`${l}.${f}${r.int(1, 99)}`, 15],
    ]);
    const domain = r.weighted(emailDomains);
    let email = `${local}@${domain}`;
    for (let n = 2; this.takenEmails.has(email); n++) {
      email = `${local}${n < 10 ? n : r.int(10, 9999)}@${domain}`;
    }
    this.takenEmails.add(email);
    return email;
  }

  private phone(): string {
    for (;;) {
      const r = this.rnd;
      const phone = `+7 (9${r.int(0, 9)}${r.int(0, 9)}) ${r.int(100, 999)}-${pad(r.int(0, 99))}-${pad(r.int(0, 99))}`;
      if (!this.takenPhones.has(phone)) {
        this.takenPhones.add(phone);
        return phone;
      }
    }
  }

  private organization(city: City, profile: number): string {
    const r = this.rnd;
    const n = r.int(1, city.federal ? 700 : 150);
    const where = city.federal ? (city.name === 'Санкт-Петербург' ? `${r.pick(spbDistricts)} района Санкт-Петербурга` : 'г. Москвы') : `г. ${city.name}`;
    const school = city.federal ? 'ГБОУ' : r.pick(['МБОУ', 'МБОУ', 'МАОУ']);
    const preschool = city.federal ? 'ГБДОУ' : r.pick(['МБДОУ', 'МАДОУ']);
    const extra = city.federal ? 'ГБУ ДО' : r.pick(['МБУ ДО', 'МАУ ДО']);
    switch (profile) {
      case 1:
        return r.chance(0.7) ? `${preschool} детский сад № ${n} ${where}` : `${preschool} «Детский сад № ${n} комбинированного вида» ${where}`;
      case 8:
        return r.chance(0.3) ? `${extra} ДЮСШ № ${r.int(1, 30)} ${where}` : `${school} СОШ № ${n} ${where}`;
      case 9:
        return r.pick([`${extra} «Дом детского творчества» ${where}`, `${extra} ЦДТ № ${r.int(1, 20)} ${where}`, `${school} СОШ № ${n} ${where}`]);
      case 10:
        return r.chance(0.4) ? `${city.federal ? 'ГБОУ' : 'ГКОУ'} школа-интернат № ${r.int(1, 40)} ${where}` : `${school} СОШ № ${n} ${where}`;
      case 11:
        return r.chance(0.2) ? `Управление образования администрации ${where}` : `${school} СОШ № ${n} ${where}`;
      default:
        return r.weighted([
          [`${school} СОШ № ${n} ${where}`, 70],
          [`${school} «Гимназия № ${r.int(1, 60)}» ${where}`, 15],
          [`${school} «Лицей № ${r.int(1, 40)}» ${where}`, 10],
          [`${school} «Центр образования № ${r.int(1, 30)}» ${where}`, 5],
        ]);
    }
  }
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
