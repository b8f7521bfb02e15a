/** Names compared the way members type them. */

/** A name folded for comparison: lower-case, "&" read as "and", letters and digits only ("Cloak & Dagger" gives "cloakanddagger"). */
export function foldName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}
