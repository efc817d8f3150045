// Sphinx's Chinese search ships the English stemmer (for the Latin terms in the text) but its
// language_data.js asks for `ChineseStemmer` (a Sphinx 9 slip): the same English stemmer, under that name.
// Loaded before language_data.js, constructed only when a search runs (EnglishStemmer is defined by then).
function ChineseStemmer() {
  return typeof EnglishStemmer === "function" ? new EnglishStemmer() : { stemWord: (word) => word };
}
