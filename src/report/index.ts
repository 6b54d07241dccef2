/**
 * Reports: an experiment's analysis as Markdown, or as one self-contained HTML page with Vega-Lite
 * plots rendered to SVG and a trajectory inspector; the same inspector for a single run folder.
 */

export { experimentReportHtml, inspectRunHtml, NotARunFolder } from "./build.js";
export { SCRIPTED_NOTE } from "./cells.js";
export { escapeHtml, finiteOrNull, scriptJson } from "./html.js";
export { type InspectedAttempt, inspectRun, type RunFiles } from "./inspect-model.js";
export { latexText, reportLatex } from "./latex.js";
export { reportMarkdown } from "./markdown.js";
export { PlotsNotWritten, plotCsv, type WrittenPlot, writePlotFiles } from "./plot-files.js";
export { experimentPlots, type Plot, type PlotRow, renderSvg } from "./plots.js";
export { type Curve, samplingPlot } from "./sampling-plot.js";
