// Calendar age in UTC: someone born on 29 February turns a year older on 1 March in non-leap years,
// which plain (month, day) comparison gives for free.
export function fullYearsOn(dateOfBirth: string, onIso: string): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const on = new Date(onIso);
  const [y, m, d] = [on.getUTCFullYear(), on.getUTCMonth() + 1, on.getUTCDate()];
  const birthdayReached = m > bm || (m === bm && d >= bd);
  return y - by - (birthdayReached ? 0 : 1);
}
