/* Stylesheets are checked like code (bin/run-tests, next to ruff): the standard rules catch unclosed
   blocks, unknown properties, units and at-rules, duplicate selectors and properties, invalid hex colours. */
export default {
  extends: ["stylelint-config-standard"],
  ignoreFiles: ["node_modules/**", "staticfiles/**", "build/**"],
  rules: {
    // The sheet is written in the order of the page (header, then each feature, then the phone's and print's
    // overrides); a later, less specific selector for another element is intended, not an accident.
    "no-descending-specificity": null,
    // A table of short rules (the print sheet, the small badges) reads best one rule a line.
    "declaration-block-single-line-max-declarations": null,
    // min-width/max-width: range syntax (width <= 40rem) is ignored whole by Safari before 16.4, which would
    // lose every phone rule there.
    "media-feature-range-notation": "prefix",
    // iOS Safari still needs its prefix to keep text from growing when a phone is turned.
    "property-no-vendor-prefix": [true, { ignoreProperties: ["/text-size-adjust$/"] }],
    // Font family names are written as their makers spell them.
    "value-keyword-case": ["lower", { ignoreProperties: ["/^--font/", "font-family"] }],
  },
};
