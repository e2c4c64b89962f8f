// Of two states of one character, the newer: the one folded from more of its log. Every
// state the server sends carries `log_position` (the entries it was folded from); a state
// kept from before it did counts as the oldest. At equal positions the one heard last wins
// (same log, a later "now": energy regained, statuses run out).
const position = (state) => state?.log_position ?? -1;

export const newest = (known, heard) => (position(heard) >= position(known) ? heard : known);

// Keep `heard` over `known` (either may be missing)?
export const isNewer = (heard, known) => Boolean(heard) && position(heard) >= position(known);
