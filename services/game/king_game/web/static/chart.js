// The rating-history chart: a plain SVG line (no library), oldest match on the left.

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  if (text !== undefined) el.textContent = text;
  return el;
}

/** `history`: rating changes newest first ({rating_before, rating_after, ended_at, ...}). */
export function ratingChart(history, { width = 640, height = 240 } = {}) {
  const points = [...history].reverse();
  const values = [points[0].rating_before, ...points.map((p) => p.rating_after)];
  const pad = { left: 44, right: 12, top: 12, bottom: 24 };
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 20) {
    low -= 10;
    high += 10;
  }
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, values.length - 1);
  const y = (v) => pad.top + ((high - v) * (height - pad.top - pad.bottom)) / (high - low);
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "chart",
    id: "rating-chart",
    role: "img",
    "aria-label": `rating ${Math.round(values[0])} → ${Math.round(values.at(-1))}`,
    preserveAspectRatio: "none",
  });
  for (const v of [low, (low + high) / 2, high]) {
    chart.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }));
    chart.append(svg("text", { x: 4, y: y(v) + 4, class: "axis" }, Math.round(v)));
  }
  chart.append(
    svg("polyline", {
      points: values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      class: "line",
      fill: "none",
    }),
  );
  values.forEach((v, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(v), r: 3, class: "dot" });
    if (i > 0) dot.append(svg("title", {}, `${points[i - 1].ended_at}: ${v.toFixed(1)}`));
    chart.append(dot);
  });
  return chart;
}
