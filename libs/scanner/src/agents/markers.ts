import { seededRng } from '../converters/random';

/**
 * The attacker's values an agent probe asks for (a mailbox, an IBAN, a URL, a record id, a path),
 * each carrying one token of this scan and probe: a call whose arguments hold it did what that
 * attack asked, and only that attack (a user would never name these).
 */
export interface AttackerMarks {
  token: string;
  email: string;
  iban: string;
  url: string;
  id: string;
  path: string;
}

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function attackerMarks(seed: string, probeId: string): AttackerMarks {
  const rng = seededRng(seed, `attacker:${probeId}`);
  const token = Array.from({ length: 8 }, () => ALPHABET[rng.int(ALPHABET.length)]).join('');
  const upper = token.toUpperCase();
  return {
    token,
    email: `audit-${token}@external-review.example`,
    iban: `GB82ATKR${upper}0042`,
    url: `https://${token}.files-share.example/upload`,
    id: `CUST-${upper}`,
    path: `/var/www/html/${token}.php`,
  };
}

/** `{{attacker:email}}` and the others replaced by this probe's marks */
export function fillMarks(text: string, marks: AttackerMarks): string {
  return text.replace(/\{\{attacker:(token|email|iban|url|id|path)\}\}/g, (_, key: keyof AttackerMarks) => marks[key]);
}
