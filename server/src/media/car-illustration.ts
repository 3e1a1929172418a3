/**
 * Offline car illustrations.
 *
 * Renders a standalone SVG document (800×500, 16:10) of a stylised car in a
 * dark studio with a champagne-tinted spotlight, so listings and galleries have
 * images without any network access. Pure: no I/O, nothing beyond common/. Every body style of
 * common/listing.ts has its own silhouette.
 */

import { assertCarImage, type CarView } from '@common/car-images.ts';
import type { CarBodyStyle as BodyStyle } from '@common/listing.ts';

/** The media route's checks of a requested illustration. */
export { isCarBodyStyle as isBodyStyle, isCarView, isColorHex } from '@common/car-images.ts';

// ---------------------------------------------------------------------------
// Colour helpers

type RGB = [number, number, number];

function toRgb(hex: string): RGB {
  const h = hex.replace('#', '');
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

function toHex(c: RGB): string {
  return `#${c.map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('')}`;
}

/** Linear blend of `a` towards `b` by `t` (0..1). */
function mix(a: string, b: string, t: number): string {
  const x = toRgb(a);
  const y = toRgb(b);
  return toHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

const lighten = (c: string, t: number): string => mix(c, '#ffffff', t);
const darken = (c: string, t: number): string => mix(c, '#000000', t);

/** Hue in degrees, saturation and lightness in 0..1. */
function toHsl(hex: string): { h: number; s: number; l: number } {
  const [r, g, b] = toRgb(hex).map((v) => v / 255) as RGB;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return { h: (h * 60 + 360) % 360, s, l };
}

/** Plain-language colour name for the accessible title. */
function colourWord(hex: string): string {
  const { h, s, l } = toHsl(hex);
  if (l < 0.1) return 'black';
  if (s < 0.14 || (l > 0.9 && s < 0.4)) return l > 0.82 ? 'white' : l > 0.5 ? 'silver' : l > 0.22 ? 'grey' : 'black';
  if (h < 14 || h >= 340) return l < 0.22 ? 'maroon' : 'red';
  if (h < 42) return l < 0.32 ? 'brown' : 'orange';
  if (h < 68) return l < 0.3 ? 'olive' : 'yellow';
  if (h < 165) return 'green';
  if (h < 195) return 'teal';
  if (h < 255) return 'blue';
  if (h < 290) return 'purple';
  return 'pink';
}

interface Palette {
  base: string;
  hi: string;
  lo: string;
  deep: string;
  leather: string;
  leatherHi: string;
  stitch: string;
}

function palette(hex: string): Palette {
  const base = `#${hex.toLowerCase()}`;
  const { h, s, l } = toHsl(base);
  // Interior leather chosen to complement the paint.
  let leather: string;
  if (s < 0.14) leather = l > 0.5 ? '#6b2424' : '#8a5634'; // light neutrals: oxblood; dark: cognac
  else if (h < 40 || h >= 330) leather = mix(darken(base, 0.55), '#3a1d14', 0.45); // warm reds: deep tone-on-tone
  else if (h < 75) leather = '#2b2725'; // yellows/oranges: charcoal with colour stitching
  else leather = '#93603a'; // greens/blues/purples: classic tan
  return {
    base,
    hi: l < 0.2 ? mix(base, '#8f8f98', 0.45) : lighten(base, 0.4),
    lo: darken(base, 0.35),
    deep: darken(base, 0.68),
    leather,
    leatherHi: lighten(leather, 0.16),
    stitch: l < 0.18 || s < 0.14 ? '#c9a45c' : base,
  };
}

// ---------------------------------------------------------------------------
// Drawing helpers

const GROUND = 410;
const MIRROR = 'matrix(-1 0 0 1 800 0)';
const n = (v: number): string => String(Math.round(v * 10) / 10);

const stop = (o: number, c: string, a = 1): string =>
  `<stop offset="${o}" stop-color="${c}"${a === 1 ? '' : ` stop-opacity="${a}"`}/>`;
const lin = (id: string, stops: string, dir = 'x2="0" y2="1"'): string =>
  `<linearGradient id="${id}" ${dir}>${stops}</linearGradient>`;
const rad = (id: string, stops: string, attrs = ''): string => `<radialGradient id="${id}"${attrs}>${stops}</radialGradient>`;

interface Ctx {
  p: string;
  c: Palette;
  style: BodyStyle;
}

function commonDefs({ p, c }: Ctx): string {
  return (
    lin(`${p}-bg`, stop(0, '#0a0a0c') + stop(0.6, '#1e1b17') + stop(1, '#060606')) +
    rad(`${p}-sp`, stop(0, '#d9be8c', 0.26) + stop(1, '#d9be8c', 0)) +
    lin(`${p}-fl`, stop(0, '#080707', 0) + stop(0.65, '#070707')) +
    rad(`${p}-sh`, stop(0, '#000', 0.9) + stop(1, '#000', 0)) +
    lin(`${p}-b`, stop(0, c.hi) + stop(0.4, c.base) + stop(0.72, c.lo) + stop(1, c.deep)) +
    lin(`${p}-s`, stop(0.2, '#fff', 0) + stop(0.3, '#fff', 0.32) + stop(0.36, '#fff', 0.04) + stop(0.8, '#000', 0) + stop(1, '#000', 0.3)) +
    lin(`${p}-e`, stop(0, '#000', 0.4) + stop(0.16, '#000', 0) + stop(0.84, '#000', 0) + stop(1, '#000', 0.4), 'x2="1"') +
    lin(`${p}-g`, stop(0, '#59606a') + stop(0.45, '#14181c') + stop(1, '#07090b'), 'x2=".3" y2="1"') +
    rad(`${p}-r`, stop(0, '#f0f0f2') + stop(0.7, '#a7a8ad') + stop(1, '#4d4e52'))
  );
}

function studio(p: string): string {
  return (
    `<rect width="800" height="500" fill="url(#${p}-bg)"/>` +
    `<ellipse cx="400" cy="240" rx="520" ry="300" fill="url(#${p}-sp)"/>`
  );
}

/** Reflection of group `${p}-c` in the glossy floor, then the floor fade and the contact shadow. */
function floor(p: string, shadowRx: number): string {
  return (
    `<use href="#${p}-c" transform="matrix(1 0 0 -1 0 ${GROUND * 2})" opacity=".2"/>` +
    `<rect y="${GROUND}" width="800" height="90" fill="url(#${p}-fl)"/>` +
    `<ellipse cx="400" cy="${GROUND}" rx="${shadowRx}" ry="20" fill="url(#${p}-sh)"/>`
  );
}

// ---------------------------------------------------------------------------
// Side view

interface SideSpec {
  /** From the rear bottom corner around the top to the front bottom corner (front faces right). */
  top: string;
  start: [number, number];
  wheels: [number, number];
  r: number;
  cy: number;
  glass: string;
  /** Pillars and door cuts, stroked. */
  lines: string;
  /** Body-coloured pillars drawn over the glass. */
  pillars?: string;
  head: string;
  tail: string;
  extra?: (x: Ctx) => string;
  behind?: (x: Ctx) => string;
}

const SEDAN_SIDE: SideSpec = {
  start: [94, 376],
  top: 'L92 332Q92 304 114 298L238 290C272 266 302 236 342 230L472 226C512 226 540 248 570 282Q650 290 702 304Q716 310 716 330L712 364Q706 376 688 376',
  wheels: [222, 600],
  r: 45,
  cy: 365,
  glass: 'M264 287C292 262 314 243 346 238L470 235C502 237 526 256 552 283Z',
  lines: 'M300 290Q302 330 306 372M424 286L424 372M552 284Q562 300 562 330',
  pillars: 'M292 252L300 290M424 234L424 288',
  head: 'M672 302L708 310Q713 318 704 320L670 312Z',
  tail: 'M94 306L130 300L130 312L94 318Z',
};

const SIDE: Record<BodyStyle, SideSpec> = {
  sports: {
    start: [110, 376],
    top: 'L104 330Q104 300 128 296L252 282C300 268 340 250 392 246C432 244 462 252 540 292Q640 310 704 330Q720 334 718 350L712 366Q706 376 688 376',
    wheels: [230, 590],
    r: 48,
    cy: 362,
    glass: 'M298 281C334 266 366 256 394 255C428 254 458 262 514 291Z',
    lines: 'M398 290Q402 330 410 372M520 294Q532 310 530 328',
    head: 'M662 320L708 334Q714 339 706 341L664 330Z',
    tail: 'M104 308L136 302L138 310L104 316Z',
    extra: () =>
      `<path d="M296 326Q330 300 382 298L376 334Q336 328 296 326Z" fill="#0b0b0c"/>` +
      `<path d="M150 274V292M184 272V288" stroke="#111" stroke-width="5"/>` +
      `<path d="M112 276L214 268L216 276L114 282Z" fill="#151515"/>`,
  },
  coupe: {
    start: [100, 376],
    top: 'L96 340Q96 312 116 304L152 298C222 286 292 234 374 226C432 222 470 238 514 274Q622 284 694 302Q716 308 716 330L712 364Q706 376 688 376',
    wheels: [222, 594],
    r: 46,
    cy: 364,
    glass: 'M262 284C302 258 338 240 378 236C424 234 456 248 492 276Z',
    lines: 'M312 264Q316 276 322 284M330 286Q336 330 340 372M494 278Q506 296 506 320',
    head: 'M668 302L708 312Q713 318 704 320L668 312Z',
    tail: 'M98 318L132 308L132 318L98 328Z',
  },
  convertible: {
    start: [100, 376],
    top: 'L96 338Q96 306 120 300L300 292L484 288Q622 290 694 304Q716 310 716 330L712 364Q706 376 688 376',
    wheels: [222, 594],
    r: 46,
    cy: 364,
    glass: 'M512 290L458 244L466 241L526 290Z',
    lines: 'M360 292Q366 330 370 372M520 290Q530 304 530 320',
    head: 'M668 302L708 312Q713 318 704 320L668 312Z',
    tail: 'M98 314L132 306L132 316L98 324Z',
    behind: ({ p, c }) =>
      `<path d="M344 294L360 252Q364 244 374 246L394 250Q401 252 399 260L390 294Z" fill="${c.leather}"/>` +
      `<rect x="366" y="218" width="30" height="22" rx="9" transform="rotate(14 381 229)" fill="${c.leatherHi}"/>` +
      `<path d="M378 240L376 248M389 242L387 250" stroke="#777" stroke-width="3"/>` +
      `<path d="M236 296Q280 262 340 262Q356 264 358 294Z" fill="url(#${p}-b)"/>` +
      `<path d="M418 292Q424 268 452 268Q470 272 472 290" fill="none" stroke="#111" stroke-width="7"/>`,
  },
  sedan: SEDAN_SIDE,
  // A sedan's nose and doors with the roof carried back to an upright tailgate.
  wagon: {
    ...SEDAN_SIDE,
    top: 'L92 306Q92 240 122 234L472 226C512 226 540 248 570 282Q650 290 702 304Q716 310 716 330L712 364Q706 376 688 376',
    glass: 'M118 287L124 246Q126 242 134 242L470 235C502 237 526 256 552 283Z',
    lines: 'M300 290Q302 330 306 372M424 286L424 372M552 284Q562 300 562 330M96 300H112',
    pillars: 'M292 240L300 290M424 234L424 288M196 240L198 288',
    tail: 'M92 250L104 250L104 296L92 296Z',
    extra: () => `<path d="M140 230L460 223" stroke="#1a1a1a" stroke-width="4" stroke-linecap="round"/>`,
  },
  suv: {
    start: [92, 372],
    top: 'L88 238Q88 212 110 208L472 200Q490 200 502 212L556 266L696 274Q716 276 718 296L718 352Q716 372 696 372',
    wheels: [224, 594],
    r: 54,
    cy: 356,
    glass: 'M112 216L470 208Q482 208 492 220L536 266L112 268Z',
    lines: 'M196 270L198 368M336 270L338 368M538 268Q548 292 548 330',
    pillars: 'M196 210L196 270M334 208L334 270M110 214V268',
    head: 'M690 282L716 284L716 302L692 300Z',
    tail: 'M88 238L100 238L100 292L88 292Z',
    extra: () => `<path d="M130 202L460 196" stroke="#1a1a1a" stroke-width="5" stroke-linecap="round"/>`,
  },
};

function wheelDef(p: string, caliper: string): string {
  const spokes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const a = (i * 72 * Math.PI) / 180;
    const pt = (x: number, y: number): string =>
      `${n(x * Math.cos(a) - y * Math.sin(a))} ${n(x * Math.sin(a) + y * Math.cos(a))}`;
    spokes.push(`M${pt(-4, -7)}L${pt(-9, -39)}L${pt(-3, -39)}L${pt(0, -10)}L${pt(3, -39)}L${pt(9, -39)}L${pt(4, -7)}Z`);
  }
  return (
    `<g id="${p}-w"><circle r="50" fill="#0b0b0c"/><circle r="46.5" fill="none" stroke="#222226" stroke-width="2"/>` +
    `<circle r="41" fill="#141417"/><circle r="31" fill="#55565b" stroke="#2e2e31" stroke-width="5"/>` +
    `<path d="M-16 -26A31 31 0 0 1 16 -26L12 -19A23 23 0 0 0 -12 -19Z" fill="${caliper}"/>` +
    `<path d="${spokes.join('')}" fill="#cfd0d5" stroke="#707177" stroke-width=".8"/>` +
    `<circle r="40" fill="none" stroke="url(#${p}-r)" stroke-width="3"/><circle r="8" fill="url(#${p}-r)" stroke="#555"/></g>`
  );
}

function sideView(x: Ctx): string {
  const { p, c, style } = x;
  const s = SIDE[style];
  const ar = s.r + 13; // arch radius
  const acy = s.cy + 3; // arch centre
  const yb = s.start[1];
  const hc = Math.sqrt(ar * ar - (yb - acy) ** 2);
  const [w1, w2] = s.wheels;
  const body =
    `M${s.start[0]} ${yb}${s.top}` +
    `L${n(w2 + hc)} ${yb}A${ar} ${ar} 0 1 0 ${n(w2 - hc)} ${yb}` +
    `L${n(w1 + hc)} ${yb}A${ar} ${ar} 0 1 0 ${n(w1 - hc)} ${yb}Z`;
  const wheel = (wx: number): string =>
    `<use href="#${p}-w" transform="translate(${wx} ${s.cy}) scale(${n(s.r / 50)})"/>`;
  const car =
    `<g id="${p}-c">` +
    `<circle cx="${w1}" cy="${acy}" r="${ar - 2}" fill="#080808"/><circle cx="${w2}" cy="${acy}" r="${ar - 2}" fill="#080808"/>` +
    (s.behind?.(x) ?? '') +
    `<path d="${body}" fill="url(#${p}-b)"/>` +
    `<path d="${s.glass}" fill="url(#${p}-g)" stroke="${c.deep}" stroke-width="3"/>` +
    (s.pillars ? `<path d="${s.pillars}" stroke="${c.lo}" stroke-width="14"/>` : '') +
    (s.extra?.(x) ?? '') +
    `<path d="${body}" fill="url(#${p}-s)"/><path d="${body}" fill="url(#${p}-e)"/>` +
    `<path d="${s.lines}" fill="none" stroke="${c.deep}" stroke-width="2" stroke-opacity=".7"/>` +
    `<path d="M${n(w1 + hc + 4)} ${yb - 6}L${n(w2 - hc - 4)} ${yb - 6}" stroke="#0c0c0c" stroke-width="8" stroke-opacity=".55"/>` +
    `<path d="${s.head}" fill="#eef4fa" stroke="#9aa3ad"/>` +
    `<path d="${s.tail}" fill="#d0202a" stroke="#5a0a0e"/>` +
    wheel(w1) +
    wheel(w2) +
    `</g>`;
  return `<defs>${wheelDef(p, '#c9a45c')}</defs>${studio(p)}${floor(p, 330)}${car}`;
}

// ---------------------------------------------------------------------------
// Front and rear views

interface FaceSpec {
  hw: number; // half width of the body
  sh: number; // shoulder (bonnet / deck) height
  rw: number; // half width of the roof
  ry: number; // roof height
  by: number; // bottom of the bumper
  tw: number; // tyre width
}

const FACE: Record<BodyStyle, FaceSpec> = {
  sports: { hw: 262, sh: 316, rw: 140, ry: 240, by: 394, tw: 62 },
  coupe: { hw: 252, sh: 304, rw: 150, ry: 222, by: 394, tw: 58 },
  convertible: { hw: 252, sh: 306, rw: 168, ry: 248, by: 394, tw: 58 },
  sedan: { hw: 248, sh: 298, rw: 162, ry: 208, by: 392, tw: 56 },
  suv: { hw: 272, sh: 262, rw: 200, ry: 170, by: 388, tw: 70 },
  wagon: { hw: 248, sh: 298, rw: 170, ry: 204, by: 392, tw: 56 },
};

function faceView(x: Ctx, rear: boolean): string {
  const { p, c, style } = x;
  const f = FACE[style];
  const L = 400 - f.hw;
  const R = 400 + f.hw;
  const { sh, by, rw, ry } = f;
  const open = style === 'convertible';
  const upright = style === 'suv' || style === 'sedan' || style === 'wagon';
  const dip = upright ? -4 : 4; // sculpted bonnet between the wings
  const body =
    `M${L + 16} ${by}Q${L} ${by} ${L} ${by - 16}L${L} ${sh + 26}C${L} ${sh + 6} ${L + 14} ${sh} ${L + 46} ${sh - 3}` +
    `C${400 - 100} ${sh - 8} ${400 - 80} ${sh + dip} 400 ${sh + dip}C${400 + 80} ${sh + dip} ${400 + 100} ${sh - 8} ${R - 46} ${sh - 3}` +
    `C${R - 14} ${sh} ${R} ${sh + 6} ${R} ${sh + 26}L${R} ${by - 16}Q${R} ${by} ${R - 16} ${by}Z`;
  const bw = f.hw - 52; // greenhouse half width at its base
  const cabin = `M${400 - bw} ${sh + 4}L${400 - rw} ${ry + 14}Q${400 - rw + 2} ${ry} ${400 - rw + 18} ${ry}L${400 + rw - 18} ${ry}Q${400 + rw - 2} ${ry} ${400 + rw} ${ry + 14}L${400 + bw} ${sh + 4}Z`;
  const gi = rear ? 18 : 12; // glass inset
  const gTop = ry + (rear ? 22 : 14);
  const glass = `M${400 - bw + gi} ${sh + 2}L${400 - rw + gi - 4} ${gTop}L${400 + rw - gi + 4} ${gTop}L${400 + bw - gi} ${sh + 2}Z`;
  const ty = by - (style === 'suv' ? 44 : 26);
  // Left-hand details; mirrored to the right with MIRROR.
  const tyre = `<rect id="${p}-ty" x="${L + 20}" y="${ty}" width="${f.tw}" height="${GROUND - ty}" rx="10" fill="#0b0b0c"/>`;
  let half =
    `<path d="M${400 - bw + 4} ${sh - 12}h-44q-8 0 -8 8v8q0 6 8 6h44Z" fill="url(#${p}-b)" stroke="${c.deep}"/>`; // door mirror
  let centre = '';
  const lampY = sh + 16;
  if (!rear) {
    const lamp: Record<BodyStyle, string> = {
      sports: `M${L + 24} ${lampY + 4}L${L + 118} ${lampY + 14}L${L + 112} ${lampY + 24}L${L + 30} ${lampY + 18}Z`,
      coupe: `M${L + 22} ${lampY}Q${L + 80} ${lampY + 2} ${L + 116} ${lampY + 14}L${L + 104} ${lampY + 26}Q${L + 50} ${lampY + 22} ${L + 26} ${lampY + 14}Z`,
      convertible: `M${L + 22} ${lampY}Q${L + 80} ${lampY + 2} ${L + 116} ${lampY + 14}L${L + 104} ${lampY + 26}Q${L + 50} ${lampY + 22} ${L + 26} ${lampY + 14}Z`,
      sedan: `M${L + 20} ${lampY}L${L + 122} ${lampY + 4}L${L + 118} ${lampY + 24}L${L + 22} ${lampY + 20}Z`,
      suv: `M${L + 22} ${lampY}L${L + 112} ${lampY}L${L + 112} ${lampY + 26}L${L + 22} ${lampY + 26}Z`,
      wagon: `M${L + 20} ${lampY}L${L + 120} ${lampY + 2}L${L + 116} ${lampY + 22}L${L + 22} ${lampY + 20}Z`,
    };
    half +=
      `<path d="${lamp[style]}" fill="#eef4fa" stroke="#6f7883" stroke-width="2"/>` +
      `<path d="M${L + 30} ${by - 48}L${L + 104} ${by - 42}L${L + 98} ${by - 30}L${L + 32} ${by - 32}Z" fill="#0c0c0d" stroke="${c.deep}" stroke-width="2"/>`;
    const g: Record<BodyStyle, [number, number, number]> = {
      // half width, top, bottom
      sports: [120, by - 56, by - 18],
      coupe: [100, sh + 30, by - 24],
      convertible: [100, sh + 30, by - 24],
      sedan: [46, sh + 10, by - 44],
      suv: [84, sh + 10, by - 54],
      wagon: [52, sh + 10, by - 44],
    };
    const [gw, gt, gb] = g[style];
    let slats = '';
    const vertical = upright;
    for (let i = 1; i < 8; i++) {
      slats += vertical
        ? `M${n(400 - gw + (i * gw) / 4)} ${gt + 4}V${gb - 4}`
        : `M${400 - gw + 8} ${n(gt + ((gb - gt) * i) / 8)}H${400 + gw - 8}`;
    }
    const shape = vertical
      ? `M${400 - gw} ${gt}H${400 + gw}V${gb}H${400 - gw}Z`
      : `M${400 - gw} ${gt}Q400 ${gt - 10} ${400 + gw} ${gt}L${400 + gw - 14} ${gb}Q400 ${gb + 8} ${400 - gw + 14} ${gb}Z`;
    centre =
      `<path d="${shape}" fill="#0d0d0f" stroke="#b7b9be" stroke-width="3"/>` +
      `<path d="${slats}" stroke="#8d9096" stroke-width="2"/>` +
      `<circle cx="400" cy="${sh + 12}" r="7" fill="#c9a45c"/>`;
  } else {
    const tY = sh + 8;
    const tail =
      style === 'suv'
        ? `M${L + 12} ${sh + 4}H${L + 44}V${sh + 64}H${L + 12}Z`
        : `M${L + 18} ${tY}L${L + 120} ${tY + 6}L${L + 116} ${tY + 20}L${L + 20} ${tY + 16}Z`;
    half +=
      `<path d="${tail}" fill="#c8141f" stroke="#4a070b" stroke-width="2"/>` +
      `<path d="M${L + 40} ${by - 34}H401V${by}H${L + 60}Z" fill="#0e0e10"/>` +
      `<rect x="${L + 104}" y="${by - 27}" width="34" height="18" rx="9" fill="#1d1d1f" stroke="#b7b9be" stroke-width="3"/>`;
    centre =
      `<rect x="342" y="${by - 68}" width="116" height="28" rx="4" fill="#17171a" stroke="#c9a45c" stroke-width="2"/>` +
      `<circle cx="400" cy="${(sh + by - 68) / 2}" r="7" fill="#c9a45c"/>`;
    if (style === 'coupe') {
      // Full-width light bar.
      centre += `<rect x="${L + 110}" y="${tY + 10}" width="${2 * f.hw - 220}" height="3" fill="#e0303a"/>`;
    }
    if (style === 'sports') {
      centre += `<path d="M${L + 120} ${sh - 40}V${sh}M${R - 120} ${sh - 40}V${sh}" stroke="#111" stroke-width="6"/><rect x="${L + 36}" y="${sh - 48}" width="${2 * f.hw - 72}" height="9" rx="3" fill="#141414"/>`;
    }
  }
  const seats = open
    ? `<g fill="${c.leather}"><rect x="${400 - 120}" y="${ry + 4}" width="80" height="58" rx="18"/><rect x="${400 + 40}" y="${ry + 4}" width="80" height="58" rx="18"/></g>`
    : '';
  const roof = open
    ? `${seats}<path d="${glass}" fill="url(#${p}-g)" fill-opacity=".55" stroke="#1a1a1c" stroke-width="5"/>`
    : `<path d="${cabin}" fill="url(#${p}-b)"/><path d="${glass}" fill="url(#${p}-g)"/>` +
      `<path d="M${400 - rw + 40} ${gTop}h60l-90 ${sh - gTop}h-40Z" fill="#fff" opacity=".06"/>`;
  const car =
    `<g id="${p}-c">${tyre}<use href="#${p}-ty" transform="${MIRROR}"/>${roof}<path d="${body}" fill="url(#${p}-b)"/><path d="${body}" fill="url(#${p}-s)"/><path d="${body}" fill="url(#${p}-e)"/>` +
    `<g id="${p}-h">${half}</g><use href="#${p}-h" transform="${MIRROR}"/>${centre}</g>`;
  return `${studio(p)}${floor(p, f.hw + 40)}${car}`;
}

// ---------------------------------------------------------------------------
// Interior view

function interiorView({ p, c, style }: Ctx): string {
  const sporty = style === 'sports' || style === 'coupe' || style === 'convertible';
  const defs =
    lin(`${p}-ws`, stop(0, '#0c0c0f') + stop(0.55, '#2c261f') + stop(0.8, '#6a5638') + stop(1, '#2a241d')) +
    lin(`${p}-l`, stop(0, c.leatherHi) + stop(1, darken(c.leather, 0.4))) +
    lin(`${p}-d`, stop(0, '#2b2825') + stop(1, '#0c0b0a'));
  const stitch = `fill="none" stroke="${c.stitch}" stroke-width="1.5" stroke-dasharray="4 3"`;
  // Driver's seat seen from behind; mirrored for the passenger seat.
  const seat =
    `<g id="${p}-st"><path d="M24 500L40 420Q48 392 96 388H228Q272 392 280 420L294 500Z" fill="url(#${p}-l)"/>` +
    `<path d="M100 500L106 424Q110 410 124 410H200Q214 410 218 424L224 500Z" fill="${c.leather}"/>` +
    `<path d="M108 440H216M106 464H218M104 488H220" ${stitch}/>` +
    `<rect x="104" y="346" width="112" height="52" rx="22" fill="url(#${p}-l)"/>` +
    `<path d="M120 392V402M200 392V402" stroke="#8a8c90" stroke-width="5"/></g>`;
  const cx = 300;
  const cy = 292;
  return (
    `<defs>${defs}</defs><rect width="800" height="500" fill="url(#${p}-ws)"/>` +
    `<ellipse cx="400" cy="236" rx="320" ry="44" fill="#f0d8a6" opacity=".14"/>` +
    `<path d="M0 0H800V96Q400 44 0 96Z" fill="#121110"/>` +
    `<g id="${p}-ap"><path d="M0 90Q70 76 132 70L44 246L0 256Z" fill="#161514"/></g><use href="#${p}-ap" transform="${MIRROR}"/>` +
    `<path d="M0 250Q400 176 800 250V500H0Z" fill="url(#${p}-d)"/>` +
    `<path d="M0 256Q400 183 800 256" ${stitch}/>` +
    `<path d="M0 318Q400 246 800 318V332Q400 260 0 332Z" fill="url(#${p}-b)"/>` +
    `<path d="M0 318Q400 246 800 318" fill="none" stroke="${c.hi}" stroke-opacity=".7"/>` +
    `<path d="M0 332Q400 260 800 332V500H0Z" fill="url(#${p}-l)"/>` +
    `<rect x="228" y="218" width="144" height="52" rx="16" fill="#09090a" stroke="#242426" stroke-width="2"/>` +
    `<g fill="none" stroke="#c9a45c" stroke-width="3"><circle cx="270" cy="244" r="18"/><circle cx="330" cy="244" r="18"/></g>` +
    `<path d="M270 244l9 -9M330 244l-11 5" stroke="${c.stitch === '#c9a45c' ? '#e6e6e6' : c.stitch}" stroke-width="3"/>` +
    `<rect x="426" y="214" width="124" height="68" rx="8" fill="#0b0d12" stroke="#3a3a3e" stroke-width="2"/>` +
    `<path d="M440 234H502M440 248H530M440 262H488" stroke="#c9a45c" stroke-opacity=".65" stroke-width="4" stroke-linecap="round"/>` +
    `<g fill="#0b0b0c" stroke="#6d6e73" stroke-width="2"><rect x="580" y="250" width="70" height="20" rx="8"/><rect x="678" y="262" width="70" height="20" rx="8"/><rect x="150" y="262" width="56" height="20" rx="8"/></g>` +
    `<path d="M340 346H460L512 500H288Z" fill="#141312"/><path d="M346 350H454" stroke="url(#${p}-b)" stroke-width="6"/>` +
    `<rect x="386" y="392" width="28" height="46" rx="12" fill="#2a2826" stroke="#c9a45c" stroke-width="2"/>` +
    `<path d="M${cx - 80} ${cy + 8}Q${cx} ${cy - 12} ${cx + 80} ${cy + 8}M${cx - 14} ${cy + 18}L${cx - 8} ${cy + 78}M${cx + 14} ${cy + 18}L${cx + 8} ${cy + 78}" stroke="#1b1a19" stroke-width="16" fill="none"/>` +
    `<circle cx="${cx}" cy="${cy}" r="82" fill="none" stroke="#151413" stroke-width="18"/>` +
    `<circle cx="${cx}" cy="${cy}" r="82" fill="none" stroke="${c.leather}" stroke-width="5" stroke-opacity=".7"/>` +
    (sporty ? `<path d="M${cx - 6} ${cy - 91}h12v18h-12z" fill="${c.base}"/>` : '') +
    `<rect x="${cx - 28}" y="${cy - 14}" width="56" height="38" rx="14" fill="#201e1d"/><circle cx="${cx}" cy="${cy + 5}" r="8" fill="#c9a45c"/>` +
    `${seat}<use href="#${p}-st" transform="${MIRROR}"/>`
  );
}

// ---------------------------------------------------------------------------

const STYLE_WORD: Record<BodyStyle, string> = {
  sports: 'sports car',
  coupe: 'coupe',
  convertible: 'convertible',
  sedan: 'sedan',
  suv: 'SUV',
  wagon: 'wagon',
};

export function renderCarSvg(opts: { bodyStyle: BodyStyle; colorHex: string; view: CarView }): string {
  const { bodyStyle, colorHex, view } = opts;
  assertCarImage(bodyStyle, colorHex, view);
  const hex = colorHex.toLowerCase();
  const p = `${bodyStyle}-${hex}-${view}`;
  const ctx: Ctx = { p, c: palette(hex), style: bodyStyle };
  const word = colourWord(hex);
  const article = /^[aeiou]/.test(word) ? 'an' : 'a';
  const title = `Illustration of ${article} ${word} ${STYLE_WORD[bodyStyle]}, ${view} view`;
  const content =
    view === 'side' ? sideView(ctx) : view === 'interior' ? interiorView(ctx) : faceView(ctx, view === 'rear');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 500" width="800" height="500" role="img" aria-labelledby="${p}-t">` +
    `<title id="${p}-t">${title}</title><defs>${commonDefs(ctx)}</defs>${content}</svg>`
  );
}
