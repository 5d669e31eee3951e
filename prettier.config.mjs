/**
 * Prettier, set to the repo's own style so that the one-time reformat changes little: double
 * quotes, semicolons, trailing commas, and wide lines. 180 columns changed the fewest existing
 * lines of the widths tried (160 to 200): the code keeps one-line calls and objects up to ~180.
 * @type {import("prettier").Config}
 */
const config = {
  printWidth: 180,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  arrowParens: "always",
};

export default config;
