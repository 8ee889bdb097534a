// The Docusaurus test site of taintlab/docusaurus, built by `cargo xtask docsites` and
// served under /sub/ as a project site would be. The taintlab lines are the ones
// wasm/js/README.md gives (checked).
import remarkTaintCheck from "taintlab/docusaurus/remark";

export default {
  title: "Taintlab Docusaurus test site",
  url: "http://127.0.0.1",
  baseUrl: "/sub/",
  favicon: "img/favicon.svg",
  onBrokenLinks: "throw",
  i18n: {
    defaultLocale: "en",
    locales: ["en", "pt-BR"],
  },
  presets: [
    [
      "classic",
      {
        docs: {
          remarkPlugins: [remarkTaintCheck],
          routeBasePath: "/",
          sidebarPath: "./sidebars.js",
        },
        pages: { remarkPlugins: [remarkTaintCheck] },
        blog: false,
        theme: { customCss: "./src/css/custom.css" },
      },
    ],
  ],
  plugins: ["taintlab/docusaurus"],
  themeConfig: {
    colorMode: { defaultMode: "light", respectPrefersColorScheme: false },
    navbar: {
      title: "Taintlab test",
      items: [{ type: "localeDropdown", position: "right" }],
    },
  },
};
