// Run by helpers.core.pdf in the one-page book before printing: open every folded solution, then shrink
// (CSS zoom) each table wider than its column until it fits, no smaller than half size. Returns how many
// tables were shrunk and the widths of any that still overflow.
() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
  let shrunk = 0; const over = [];
  for (const table of document.querySelectorAll('table')) {
    const column = table.closest('article') || document.body;
    const room = column.clientWidth;
    const width = table.scrollWidth;
    if (width > room + 1) {
      table.style.zoom = Math.max(0.5, room / width).toFixed(3);
      shrunk += 1;
      const after = table.getBoundingClientRect().width;
      if (after > room + 1) { over.push(Math.round(after)); }
    }
  }
  return {shrunk: shrunk, overflowing: over};
}
