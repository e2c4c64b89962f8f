// The form of a sentence for a number, in the page's language: the page carries each form the
// server translated (ngettext) as `<name>One` and `<name>Other` in a dataset.
export function plural(words, name, n) {
  const rule = new Intl.PluralRules(document.documentElement.lang || undefined).select(n);
  const text = rule === "one" ? words[`${name}One`] : words[`${name}Other`];
  return text.replace("%(n)s", n);
}
