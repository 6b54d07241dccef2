/** Words for messages: the nearest known word to a typo ("did you mean"). */
export { didYouMean, editDistance, nearestWord, SUGGEST_WITHIN } from "./nearest.js";
