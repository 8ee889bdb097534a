export default {
  docs: ["intro", "more", "plain"],
};
