export default {
  docs: ["intro", "more", "plain", "what-if"],
};
