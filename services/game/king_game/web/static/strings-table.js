// The table pages' labels, Turkish and English (merged into i18n.js's catalogue).

export const STRINGS = { en: {}, tr: {} };
