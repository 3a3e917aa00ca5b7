/**
 * Renders benchmark results as a horizontal bar chart (SVG) for the README.
 * Plain SVG text: no dependency, readable in any Markdown viewer.
 */
export interface Bar {
  label: string;
  value: number;
  /** Highlight candor's own bars. */
  ours?: boolean;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function barChart(options: { title: string; unit: string; bars: Bar[] }): string {
  const { title, unit, bars } = options;
  const labelWidth = 230;
  const chartWidth = 460;
  const rowHeight = 28;
  const top = 44;
  const width = labelWidth + chartWidth + 120;
  const height = top + bars.length * rowHeight + 16;
  const max = Math.max(...bars.map((b) => b.value), 1);
  const rows = bars.map((bar, i) => {
    const y = top + i * rowHeight;
    const w = Math.max(2, (bar.value / max) * chartWidth);
    const fill = bar.ours ? '#2f7d4f' : '#8a94a6';
    const value = `${Math.round(bar.value).toLocaleString('en')} ${unit}`;
    return [
      `<text x="${labelWidth - 10}" y="${y + 18}" text-anchor="end">${escapeXml(bar.label)}</text>`,
      `<rect x="${labelWidth}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowHeight - 8}" rx="3" fill="${fill}"/>`,
      `<text x="${labelWidth + w + 8}" y="${y + 18}">${escapeXml(value)}</text>`,
    ].join('');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="13" role="img" aria-labelledby="chart-title">`,
    `<title id="chart-title">${escapeXml(title)}</title>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="16" y="26" font-size="15" font-weight="600">${escapeXml(title)}</text>`,
    ...rows,
    '</svg>',
    '',
  ].join('\n');
}
