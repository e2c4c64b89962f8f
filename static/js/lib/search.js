// Text as a name search compares it: no accents, no case ("Niccolò" → "niccolo"), as the
// server's services/characters.py folds it.
export const folded = (text) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLocaleLowerCase();
