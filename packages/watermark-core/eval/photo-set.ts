// The evaluation photos (`fixtures/photos/`): real photographs from Debian wallpaper packages,
// chosen to span 0.25 to 12 MP, both orientations, and the hard cases for an invisible mark
// (skies, fog, night gradients, bokeh). `prepare-photos.ts` rebuilds them from the packages;
// `fixtures/photos/README.md` lists authors and licences.

export interface PhotoSource {
  /** Debian package that ships the original. */
  readonly debianPackage: string;
  /** Path of the original inside the extracted package. */
  readonly path: string;
  readonly author: string;
  readonly licence: string;
  readonly originalSize: string;
}

export interface Photo {
  readonly file: string;
  readonly width: number;
  readonly height: number;
  /** Crop applied to the original before resizing (pixels of the original). */
  readonly crop?: { left: number; top: number; width: number; height: number };
  readonly source: PhotoSource;
}

const lomiri16 = (file: string, author: string, licence: string, originalSize: string) => ({
  debianPackage: 'lomiri-wallpapers-16.04',
  path: `usr/share/backgrounds/${file}`,
  author,
  licence,
  originalSize,
});
const lomiri20 = (file: string, author: string, licence: string, originalSize: string) => ({
  debianPackage: 'lomiri-wallpapers-20.04',
  path: `usr/share/backgrounds/${file}`,
  author,
  licence,
  originalSize,
});
const plasma = (name: string, author: string) => ({
  debianPackage: 'plasma-workspace-wallpapers',
  path: `usr/share/wallpapers/${name}/contents/images/2560x1600.jpg`,
  author,
  licence: 'LGPL-3.0',
  originalSize: '2560x1600',
});

export const photoSet: readonly Photo[] = [
  {
    file: 'sunset-12mp.jpg',
    width: 4272,
    height: 2848,
    source: lomiri16(
      'sunset_by_Aitzol_Berasategi.jpg',
      'Aitzol Berasategi',
      'CC-BY-4.0',
      '4272x2848',
    ),
  },
  {
    file: 'bridge-8mp.jpg',
    width: 3840,
    height: 2160,
    source: lomiri16(
      'Bridge_by_Sander_Klootwijk.jpg',
      'Sander Klootwijk',
      'CC-BY-SA-4.0',
      '4352x2448',
    ),
  },
  {
    file: 'dragonfly-portrait-7mp.jpg',
    width: 2376,
    height: 3168,
    crop: { left: 1200, top: 0, width: 2376, height: 3168 },
    source: lomiri16('Dragonfly_by_Bolly.jpg', 'Bolly', 'CC-BY-SA-4.0', '4224x3168'),
  },
  {
    file: 'friends-portrait-6mp.jpg',
    width: 2056,
    height: 3088,
    source: lomiri16(
      'friends_by_Aitzol_Berasategi.jpg',
      'Aitzol Berasategi',
      'CC-BY-4.0',
      '2056x3088',
    ),
  },
  {
    file: 'nuthatch-portrait-5mp.jpg',
    width: 1700,
    height: 3034,
    crop: { left: 1300, top: 0, width: 1900, height: 3391 },
    source: lomiri20('Kleiber_by_Lukas_Baubkus.jpg', 'Lukas Baubkus', 'CC-BY-SA-3.0', '6028x3391'),
  },
  {
    file: 'dandelions-4mp.jpg',
    width: 2667,
    height: 1500,
    source: lomiri16(
      'seeding_by_Clements_Engelhardt.jpg',
      'Clemens Engelhardt',
      'CC0-1.0',
      '5312x2988',
    ),
  },
  {
    file: 'mountains-3mp.jpg',
    width: 2000,
    height: 1500,
    source: lomiri16(
      'picosdeeuropa_by_Aitzol_Berasategi.jpg',
      'Aitzol Berasategi',
      'CC-BY-4.0',
      '3264x2448',
    ),
  },
  {
    file: 'stream-portrait-2mp.jpg',
    width: 1200,
    height: 1800,
    crop: { left: 1350, top: 0, width: 1370, height: 2056 },
    source: lomiri16(
      'life_by_Aitzol_Berasategi.jpg',
      'Aitzol Berasategi',
      'CC-BY-4.0',
      '3088x2056',
    ),
  },
  {
    file: 'kite-sky-2mp.jpg',
    width: 1792,
    height: 1120,
    source: plasma('Kite', 'Risto Saukonpää'),
  },
  {
    file: 'fog-pier-1.5mp.jpg',
    width: 1536,
    height: 960,
    source: plasma('ColdRipple', 'Risto Saukonpää'),
  },
  {
    file: 'clock-1mp.jpg',
    width: 1152,
    height: 864,
    source: lomiri16(
      'greentock_by_Peter_Nerlich.jpg',
      'Peter Nerlich',
      'CC-BY-SA-4.0',
      '2880x2160',
    ),
  },
  {
    file: 'wine-portrait-1mp.jpg',
    width: 816,
    height: 1224,
    source: lomiri16('Wine_by_Jakkub_Mede.jpg', 'Jakub Mede', 'CC-BY-4.0', '2560x3837'),
  },
  {
    file: 'bird-lamp-portrait-0.75mp.jpg',
    width: 750,
    height: 1000,
    crop: { left: 700, top: 0, width: 1620, height: 2160 },
    source: lomiri16('free_by_Peter_Nerlich.jpg', 'Peter Nerlich', 'CC-BY-SA-4.0', '2880x2160'),
  },
  { file: 'boats-0.6mp.jpg', width: 1000, height: 625, source: plasma('EveningGlow', 'Ian Hex') },
  {
    file: 'dusk-lake-0.5mp.jpg',
    width: 896,
    height: 560,
    source: plasma('summer_1am', 'Risto Saukonpää'),
  },
  {
    file: 'autumn-hill-portrait-0.4mp.jpg',
    width: 520,
    height: 780,
    crop: { left: 700, top: 0, width: 1370, height: 2056 },
    source: lomiri16(
      'aitzgorri_by_Aitzol_Berasategi.jpg',
      'Aitzol Berasategi',
      'CC-BY-4.0',
      '3088x2056',
    ),
  },
  {
    file: 'night-lake-0.3mp.jpg',
    width: 704,
    height: 440,
    source: plasma('DarkestHour', 'Risto Saukonpää'),
  },
  {
    file: 'fig-0.25mp.jpg',
    width: 608,
    height: 411,
    source: lomiri16('Picture_0B_by_freespace.jpg', 'Trevor "Freespace"', 'CC-BY-4.0', '2572x1740'),
  },
];
