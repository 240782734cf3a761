// The evaluation photos (`fixtures/photos/`): real photographs (and a few graphics and screenshots)
// from Debian packages, chosen to span 0.14 to 12 MP, both orientations, and the hard cases for an
// invisible mark (skies, fog, night and dark scenes, flat walls and studio backgrounds, bokeh,
// faces, text, flat-colour graphics, fine textures). `prepare-photos.ts` rebuilds them from the
// packages; `fixtures/photos/README.md` lists authors and licences.

export interface PhotoSource {
  /** Debian package that ships the original. */
  readonly debianPackage: string;
  /** Path of the original inside the extracted package. */
  readonly path: string;
  readonly author: string;
  readonly licence: string;
  readonly originalSize: string;
}

/** What a photo shows, for picking the hard cases (a photo usually has several). */
export type Scene =
  | 'flat' // large smooth areas: clear sky, walls, studio backgrounds, water, fog
  | 'night' // night or dark, low-key scenes
  | 'faces' // people, portraits
  | 'text' // lettering: signs, pages, screenshots of text
  | 'graphics' // illustrations, flat-colour artwork, screenshots
  | 'bokeh' // out-of-focus backgrounds
  | 'texture' // fine detail everywhere: foliage, grass, sand, wood, fur
  | 'landscape-scene'
  | 'nature'
  | 'city'; // buildings, streets, vehicles, man-made structures

export interface Photo {
  readonly file: string;
  readonly scenes?: readonly Scene[];
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

const mate = (file: string, author: string, originalSize: string) => ({
  debianPackage: 'mate-backgrounds',
  path: `usr/share/backgrounds/mate/${file}`,
  author,
  licence: 'GPL-2.0-or-later',
  originalSize,
});
const lxqt = (file: string, originalSize: string, author = 'Razor and LXQt teams') => ({
  debianPackage: 'lxqt-themes',
  path: `usr/share/lxqt/wallpapers/${file}`,
  author,
  licence: 'LGPL-2.1-or-later',
  originalSize,
});
/** scikit-image's sample data: BSD-3-Clause per debian/copyright; each image's own terms below. */
const skimage = (file: string, author: string, licence: string, originalSize: string) => ({
  debianPackage: 'python3-skimage',
  path: `usr/lib/python3/dist-packages/skimage/data/${file}`,
  author,
  licence,
  originalSize,
});
const gnomeHelp = (file: string, originalSize: string) => ({
  debianPackage: 'gnome-user-docs',
  path: `usr/share/help/C/gnome-help/figures/${file}`,
  author: 'GNOME Documentation Project (Shaun McCance et al.)',
  licence: 'CC-BY-SA-3.0',
  originalSize,
});
const gimpHelp = (file: string, originalSize: string) => ({
  debianPackage: 'gimp-help-en',
  path: `usr/share/gimp/2.0/help/en/images/${file}`,
  author: 'GIMP Documentation Team',
  licence: 'GFDL-1.2-or-later (no invariant sections)',
  originalSize,
});

export const photoSet: readonly Photo[] = [
  {
    file: 'sunset-12mp.jpg',
    scenes: ['landscape-scene', 'flat'],
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
    scenes: ['flat', 'landscape-scene'],
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
    scenes: ['nature', 'texture'],
    width: 2376,
    height: 3168,
    crop: { left: 1200, top: 0, width: 2376, height: 3168 },
    source: lomiri16('Dragonfly_by_Bolly.jpg', 'Bolly', 'CC-BY-SA-4.0', '4224x3168'),
  },
  {
    file: 'friends-portrait-6mp.jpg',
    scenes: ['flat', 'texture'],
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
    scenes: ['nature', 'texture', 'bokeh'],
    width: 1700,
    height: 3034,
    crop: { left: 1300, top: 0, width: 1900, height: 3391 },
    source: lomiri20('Kleiber_by_Lukas_Baubkus.jpg', 'Lukas Baubkus', 'CC-BY-SA-3.0', '6028x3391'),
  },
  {
    file: 'dandelions-4mp.jpg',
    scenes: ['nature', 'bokeh'],
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
    scenes: ['landscape-scene', 'nature'],
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
    scenes: ['nature', 'texture'],
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
    scenes: ['flat'],
    width: 1792,
    height: 1120,
    source: plasma('Kite', 'Risto Saukonpää'),
  },
  {
    file: 'fog-pier-1.5mp.jpg',
    scenes: ['flat', 'landscape-scene'],
    width: 1536,
    height: 960,
    source: plasma('ColdRipple', 'Risto Saukonpää'),
  },
  {
    file: 'clock-1mp.jpg',
    scenes: ['flat'],
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
    scenes: ['flat'],
    width: 816,
    height: 1224,
    source: lomiri16('Wine_by_Jakkub_Mede.jpg', 'Jakub Mede', 'CC-BY-4.0', '2560x3837'),
  },
  {
    file: 'bird-lamp-portrait-0.75mp.jpg',
    scenes: ['flat', 'bokeh'],
    width: 750,
    height: 1000,
    crop: { left: 700, top: 0, width: 1620, height: 2160 },
    source: lomiri16('free_by_Peter_Nerlich.jpg', 'Peter Nerlich', 'CC-BY-SA-4.0', '2880x2160'),
  },
  {
    file: 'boats-0.6mp.jpg',
    scenes: ['landscape-scene', 'texture'],
    width: 1000,
    height: 625,
    source: plasma('EveningGlow', 'Ian Hex'),
  },
  {
    file: 'dusk-lake-0.5mp.jpg',
    scenes: ['flat', 'night', 'landscape-scene'],
    width: 896,
    height: 560,
    source: plasma('summer_1am', 'Risto Saukonpää'),
  },
  {
    file: 'autumn-hill-portrait-0.4mp.jpg',
    scenes: ['landscape-scene', 'nature'],
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
    scenes: ['night', 'flat'],
    width: 704,
    height: 440,
    source: plasma('DarkestHour', 'Risto Saukonpää'),
  },
  {
    file: 'fig-0.25mp.jpg',
    scenes: ['flat', 'texture'],
    width: 608,
    height: 411,
    source: lomiri16('Picture_0B_by_freespace.jpg', 'Trevor "Freespace"', 'CC-BY-4.0', '2572x1740'),
  },
  {
    file: 'astronaut-avatar-0.15mp.jpg',
    scenes: ['faces'],
    width: 400,
    height: 400,
    crop: { left: 25, top: 0, width: 400, height: 400 },
    source: skimage('astronaut.png', 'NASA', 'public domain (NASA)', '512x512'),
  },
  {
    file: 'grace-hopper-portrait-0.25mp.jpg',
    scenes: ['faces', 'flat'],
    width: 400,
    height: 600,
    crop: { left: 56, top: 0, width: 400, height: 600 },
    source: {
      debianPackage: 'python-matplotlib-data',
      path: 'usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg',
      author: 'U.S. Navy (official portrait of Grace Hopper)',
      // debian/copyright: the Matplotlib licence (PSF-based) for the whole package; the photo
      // itself is a work of the U.S. federal government.
      licence: 'public domain (U.S. Navy)',
      originalSize: '512x600',
    },
  },
  {
    file: 'espresso-0.25mp.jpg',
    scenes: ['texture', 'flat'],
    width: 600,
    height: 400,
    source: skimage('coffee.png', 'Rachel Michetti', 'CC0-1.0', '600x400'),
  },
  {
    file: 'cat-0.15mp.jpg',
    scenes: ['texture'],
    width: 451,
    height: 300,
    source: skimage('chelsea.png', 'Stefan van der Walt', 'CC0-1.0', '451x300'),
  },
  {
    file: 'rocket-launch-night-0.25mp.jpg',
    scenes: ['night', 'city'],
    width: 640,
    height: 360,
    crop: { left: 0, top: 67, width: 640, height: 360 },
    source: skimage('rocket.jpg', 'SpaceX', 'public domain (SpaceX)', '640x427'),
  },
  {
    file: 'deep-field-portrait-0.25mp.jpg',
    scenes: ['night'],
    width: 360,
    height: 640,
    crop: { left: 255, top: 0, width: 490, height: 872 },
    source: skimage(
      'hubble_deep_field.jpg',
      'NASA, ESA (Hubble)',
      'public domain (NASA)',
      '1000x872',
    ),
  },
  {
    file: 'menu-screenshot-portrait-0.3mp.jpg',
    scenes: ['text', 'graphics', 'flat'],
    width: 430,
    height: 750,
    source: gnomeHelp('shell-exit-expanded.png', '430x750'),
  },
  {
    file: 'cloud-sky-portrait-0.15mp.jpg',
    scenes: ['flat', 'nature'],
    width: 360,
    height: 480,
    crop: { left: 448, top: 0, width: 1152, height: 1536 },
    source: lxqt('cloud.png', '2048x1536'),
  },
  {
    file: 'green-hills-0.25mp.jpg',
    scenes: ['flat', 'landscape-scene'],
    width: 640,
    height: 360,
    crop: { left: 0, top: 384, width: 2048, height: 1152 },
    source: lxqt('this-is-not-windows.jpg', '2048x1536'),
  },
  {
    file: 'dewdrop-0.15mp.jpg',
    scenes: ['bokeh', 'flat', 'nature'],
    width: 512,
    height: 341,
    source: lxqt('drop.png', '2000x1333'),
  },
  {
    file: 'ladybird-portrait-0.25mp.jpg',
    scenes: ['nature', 'bokeh'],
    width: 400,
    height: 640,
    crop: { left: 1270, top: 0, width: 1000, height: 1600 },
    source: mate('nature/LadyBird.jpg', 'Charles Barbin', '2560x1600'),
  },
  {
    file: 'water-splash-0.25mp.jpg',
    scenes: ['flat', 'nature'],
    width: 600,
    height: 400,
    crop: { left: 160, top: 0, width: 2400, height: 1600 },
    source: mate('nature/Aqua.jpg', 'Charles Barbin', '2560x1600'),
  },
  {
    file: 'pale-wood-portrait-0.25mp.jpg',
    scenes: ['texture', 'flat'],
    width: 360,
    height: 640,
    crop: { left: 740, top: 0, width: 1080, height: 1920 },
    source: mate('nature/Wood.jpg', 'Jean-François Fortin Tam', '2560x1920'),
  },
  {
    file: 'seeds-bokeh-0.25mp.jpg',
    scenes: ['bokeh', 'nature'],
    width: 480,
    height: 480,
    crop: { left: 860, top: 0, width: 1600, height: 1600 },
    source: mate('nature/TwoWings.jpg', 'Charles Barbin, Hylke Bons', '2560x1600'),
  },
  {
    file: 'butterfly-pastel-0.25mp.jpg',
    scenes: ['flat', 'bokeh', 'nature'],
    width: 640,
    height: 426,
    source: lxqt('Butterfly-Kenneth-Wimer.jpg', '1920x1278', 'Kenneth Wimer'),
  },
  {
    file: 'colour-stripes-0.25mp.jpg',
    scenes: ['graphics', 'flat'],
    width: 600,
    height: 400,
    source: lomiri20(
      'Painting-Colors_by__herobrine7gamer.jpg',
      'HEROBRINE7GAMER',
      'CC-BY-SA-3.0',
      '6000x4000',
    ),
  },
  {
    file: 'sunbeams-portrait-0.25mp.jpg',
    scenes: ['night', 'landscape-scene'],
    width: 360,
    height: 640,
    crop: { left: 700, top: 0, width: 1094, height: 1944 },
    source: lxqt('beam.png', '2592x1944'),
  },
  {
    file: 'pagoda-0.25mp.jpg',
    scenes: ['city', 'flat'],
    width: 640,
    height: 427,
    source: {
      debianPackage: 'python3-sklearn',
      path: 'usr/lib/python3/dist-packages/sklearn/datasets/images/china.jpg',
      author: 'danielbuechele (Flickr)',
      // As sklearn/datasets/images/README.txt says (debian/copyright: BSD-3-Clause, whole package).
      licence: 'CC-BY-2.0',
      originalSize: '640x427',
    },
  },
  {
    file: 'orchard-truck-0.25mp.jpg',
    scenes: ['landscape-scene', 'city'],
    width: 600,
    height: 400,
    source: gimpHelp('tutorials/tone-mapping/apple-orchard-truck-from-camera.jpg', '768x512'),
  },
  {
    file: 'power-lines-portrait-0.25mp.jpg',
    scenes: ['flat', 'city'],
    width: 400,
    height: 600,
    crop: { left: 330, top: 0, width: 409, height: 614 },
    source: gimpHelp('tutorials/tone-mapping/power-lines.jpg', '768x614'),
  },
  {
    file: 'calendar-screenshot-portrait-0.65mp.jpg',
    scenes: ['text', 'graphics', 'flat'],
    width: 764,
    height: 863,
    source: gnomeHelp('shell-appts.png', '764x863'),
  },
  {
    file: 'dune-grass-0.6mp.jpg',
    scenes: ['flat', 'nature', 'landscape-scene'],
    width: 960,
    height: 600,
    source: mate('nature/Dune.jpg', 'Marco Cogoni, Hylke Bons', '1680x1050'),
  },
  {
    file: 'leaf-veins-portrait-0.6mp.jpg',
    scenes: ['texture', 'nature'],
    width: 600,
    height: 960,
    crop: { left: 585, top: 0, width: 750, height: 1200 },
    source: mate('nature/Blinds.jpg', 'Lennart Poettering, Andrea Cimitan', '1920x1200'),
  },
  {
    file: 'orange-petals-0.8mp.jpg',
    scenes: ['nature', 'texture'],
    width: 1024,
    height: 770,
    source: mate('nature/FreshFlower.jpg', 'Jens Ansorg', '1600x1203'),
  },
  {
    file: 'marigold-bokeh-0.6mp.jpg',
    scenes: ['bokeh', 'nature'],
    width: 1000,
    height: 625,
    source: mate('nature/Garden.jpg', 'Charles Barbin', '2560x1600'),
  },
  {
    file: 'young-grass-portrait-0.65mp.jpg',
    scenes: ['texture', 'nature'],
    width: 640,
    height: 1024,
    crop: { left: 320, top: 0, width: 640, height: 1024 },
    source: mate('nature/GreenMeadow.jpg', 'Timothy Schellhase, Lapo Calamandrei', '1280x1024'),
  },
  {
    file: 'raindrops-leaf-0.65mp.jpg',
    scenes: ['nature', 'texture'],
    width: 1024,
    height: 640,
    source: mate('nature/RainDrops.jpg', '"blackcombwhistler07"', '1920x1200'),
  },
  {
    file: 'sunset-clouds-portrait-0.6mp.jpg',
    scenes: ['landscape-scene', 'night'],
    width: 640,
    height: 960,
    crop: { left: 1000, top: 0, width: 1329, height: 1993 },
    source: lxqt('after-the-rain.jpg', '3000x1993'),
  },
  {
    file: 'blossom-bokeh-0.55mp.jpg',
    scenes: ['bokeh', 'nature'],
    width: 900,
    height: 598,
    source: lxqt('appleflower.png', '3000x1993'),
  },
  {
    file: 'swallowtail-dark-0.8mp.jpg',
    scenes: ['bokeh', 'night', 'nature'],
    width: 1080,
    height: 718,
    source: lxqt('butterfly.png', '3000x1994'),
  },
  {
    file: 'fog-field-0.8mp.jpg',
    scenes: ['flat', 'landscape-scene'],
    width: 1024,
    height: 768,
    source: lxqt('fog.jpg', '2048x1536'),
  },
  {
    file: 'wildflowers-portrait-0.55mp.jpg',
    scenes: ['texture', 'nature'],
    width: 600,
    height: 900,
    crop: { left: 1400, top: 0, width: 1329, height: 1993 },
    source: lxqt('flowers.png', '3000x1993'),
  },
  {
    file: 'paper-cups-0.65mp.jpg',
    scenes: ['flat'],
    width: 800,
    height: 800,
    crop: { left: 480, top: 0, width: 1600, height: 1600 },
    source: plasma('ColorfulCups', 'Dmitri Popov'),
  },
  {
    file: 'paintbrushes-portrait-0.55mp.jpg',
    scenes: ['texture', 'bokeh'],
    width: 600,
    height: 900,
    crop: { left: 100, top: 0, width: 716, height: 1074 },
    source: lomiri16('Picture_1A_by_freespace.jpg', 'Trevor "Freespace"', 'CC-BY-4.0', '1365x1074'),
  },
  {
    file: 'icons-graphic-0.9mp.jpg',
    scenes: ['graphics', 'flat'],
    width: 1280,
    height: 720,
    crop: { left: 0, top: 896, width: 4096, height: 2304 },
    source: {
      debianPackage: 'gnome-backgrounds',
      path: 'usr/share/backgrounds/gnome/pixels-l.webp',
      author: 'Jakub Steiner',
      licence: 'CC-BY-SA-3.0',
      originalSize: '4096x4096',
    },
  },
  {
    file: 'wooden-jetty-1.5mp.jpg',
    scenes: ['landscape-scene', 'texture'],
    width: 1600,
    height: 1000,
    source: plasma('BytheWater', 'Maciej Wiklo'),
  },
  {
    file: 'fallen-leaf-bokeh-2.5mp.jpg',
    scenes: ['bokeh', 'nature'],
    width: 1920,
    height: 1200,
    source: plasma('FallenLeaf', 'Martin Klapetek'),
  },
  {
    file: 'moss-1mp.jpg',
    scenes: ['texture', 'nature'],
    width: 1280,
    height: 800,
    source: plasma('OneStandsOut', 'Risto Saukonpää'),
  },
  {
    file: 'forest-path-portrait-1.5mp.jpg',
    scenes: ['nature', 'texture'],
    width: 1000,
    height: 1600,
    crop: { left: 200, top: 0, width: 1000, height: 1600 },
    source: plasma('Path', 'Risto Saukonpää'),
  },
  {
    file: 'mountain-ridge-1.5mp.jpg',
    scenes: ['landscape-scene', 'flat'],
    width: 1536,
    height: 1022,
    source: lxqt('Valendas.png', '1920x1277'),
  },
  {
    file: 'frosted-glass-portrait-2mp.jpg',
    scenes: ['texture'],
    width: 1200,
    height: 1600,
    crop: { left: 630, top: 0, width: 1620, height: 2160 },
    source: lomiri16(
      'analogpattern_by_Peter_Nerlich.jpg',
      'Peter Nerlich',
      'CC-BY-SA-4.0',
      '2880x2160',
    ),
  },
  {
    file: 'yellow-flower-portrait-1.5mp.jpg',
    scenes: ['nature', 'bokeh'],
    width: 1000,
    height: 1600,
    crop: { left: 1560, top: 0, width: 1000, height: 1600 },
    source: mate('nature/YellowFlower.jpg', 'Charles Barbin', '2560x1600'),
  },
  {
    file: 'milky-way-sea-2mp.jpg',
    scenes: ['night', 'graphics'],
    width: 1440,
    height: 1440,
    source: lomiri20('Infinite-Sea_by_Aury88.jpg', 'Aury88', 'CC-BY-SA-3.0', '4096x4096'),
  },
  {
    file: 'storm-road-1.5mp.jpg',
    scenes: ['flat', 'landscape-scene'],
    width: 1536,
    height: 1024,
    source: mate('nature/Storm.jpg', 'Sergey Nazarov', '1920x1280'),
  },
  {
    file: 'dark-lake-portrait-1.5mp.jpg',
    scenes: ['night', 'flat', 'landscape-scene'],
    width: 1000,
    height: 1600,
    crop: { left: 780, top: 0, width: 1000, height: 1600 },
    source: plasma('DarkestHour', 'Risto Saukonpää'),
  },
  {
    file: 'retina-1mp.jpg',
    scenes: ['flat', 'night'],
    width: 1024,
    height: 1024,
    source: skimage('retina.jpg', 'Mikael Häggström', 'CC0-1.0', '1411x1411'),
  },
];
