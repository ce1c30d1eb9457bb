/**
 * A synthetic bilingual catalogue for bench/search.ts: records in the shape export-records writes
 * (so they are loaded through import-records' service), made from a vocabulary of polar and
 * plateau science. Record `n` depends only on `n` and the seed, so every run loads the same
 * catalogue, in any number of pieces.
 *
 * Roughly: 70 % Chinese records, 30 % English; 62 % of boxes on the Tibetan Plateau and its
 * mountains, 16 % Arctic, 12 % Antarctic (polar caps among them), 6 % across the 180th meridian
 * (Bering Sea, Chukotka, Aleutians, Ross Sea), 4 % without a box; published 2000-2026, more
 * recently; 2 to 4 themes, 1 or 2 places, a discipline and a period each; funds 5 and 6 with
 * their XDA20 / XDA19 / ZKK sub-topics, and national grants.
 */

/** mulberry32: small, fast, good enough to pick words (bench/mixed-load-mix.ts draws its mix with it too). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Pair = [zh: string, en: string];
type Box = [west: number, south: number, east: number, north: number];
interface Place {
  name: Pair;
  box: Box;
  weight: number;
}

/** Themes, with how often records carry them (glaciers, permafrost and snow are the big ones). */
const THEMES: [Pair, number][] = [
  [['冰川', 'glacier'], 6],
  [['多年冻土', 'permafrost'], 5],
  [['积雪', 'snow cover'], 5],
  [['湖泊', 'lake'], 4],
  [['降水', 'precipitation'], 5],
  [['气温', 'air temperature'], 4],
  [['径流', 'runoff'], 3],
  [['海冰', 'sea ice'], 3],
  [['冰盖', 'ice sheet'], 2],
  [['冰芯', 'ice core'], 2],
  [['土壤水分', 'soil moisture'], 3],
  [['植被', 'vegetation'], 4],
  [['蒸散发', 'evapotranspiration'], 3],
  [['地表温度', 'land surface temperature'], 3],
  [['冰湖', 'glacial lake'], 2],
  [['冻融', 'freeze-thaw'], 2],
  [['风速', 'wind speed'], 2],
  [['太阳辐射', 'solar radiation'], 2],
  [['气溶胶', 'aerosol'], 2],
  [['黑碳', 'black carbon'], 1],
  [['湖冰', 'lake ice'], 1],
  [['物质平衡', 'mass balance'], 2],
  [['雪水当量', 'snow water equivalent'], 2],
  [['活动层', 'active layer'], 2],
  [['草地', 'grassland'], 3],
  [['土地覆盖', 'land cover'], 3],
  [['水质', 'water quality'], 2],
  [['地下水', 'groundwater'], 2],
  [['热融湖', 'thermokarst lake'], 1],
  [['海表温度', 'sea surface temperature'], 2],
  [['冰架', 'ice shelf'], 1],
  [['生物多样性', 'biodiversity'], 2],
  [['碳通量', 'carbon flux'], 2],
  [['人类活动', 'human activity'], 2],
  [['土壤有机碳', 'soil organic carbon'], 2],
  [['风沙', 'aeolian sand'], 1],
  [['地震', 'earthquake'], 1],
  [['水资源', 'water resources'], 2],
  [['农业', 'agriculture'], 2],
  [['物候', 'phenology'], 2],
];

const PLATEAU: Place[] = [
  { name: ['青藏高原', 'Tibetan Plateau'], box: [73, 26, 105, 40], weight: 20 },
  { name: ['祁连山', 'Qilian Mountains'], box: [94, 36, 104, 40], weight: 6 },
  { name: ['喜马拉雅山', 'Himalayas'], box: [72, 26, 97, 36], weight: 6 },
  { name: ['念青唐古拉山', 'Nyainqentanglha Mountains'], box: [88, 29, 95, 31.5], weight: 3 },
  { name: ['三江源', 'Three-River Headwaters'], box: [89, 31, 103, 37], weight: 5 },
  { name: ['羌塘高原', 'Changtang Plateau'], box: [79, 31, 92, 36.5], weight: 3 },
  { name: ['帕米尔高原', 'Pamir Plateau'], box: [70, 36, 76, 40], weight: 3 },
  { name: ['天山', 'Tian Shan'], box: [70, 39, 95, 45], weight: 4 },
  { name: ['昆仑山', 'Kunlun Mountains'], box: [75, 34, 100, 37], weight: 3 },
  { name: ['横断山', 'Hengduan Mountains'], box: [97, 24, 104, 34], weight: 3 },
  { name: ['纳木错', 'Nam Co'], box: [90.2, 30.5, 91.1, 31], weight: 2 },
  { name: ['青海湖', 'Qinghai Lake'], box: [99.5, 36.5, 100.8, 37.3], weight: 2 },
  { name: ['色林错', 'Siling Co'], box: [88.5, 31.5, 89.5, 32], weight: 1 },
  { name: ['雅鲁藏布江', 'Yarlung Tsangpo'], box: [82, 27, 97, 31], weight: 3 },
  { name: ['黄河源区', 'source region of the Yellow River'], box: [95, 32, 103, 36], weight: 2 },
  { name: ['长江源区', 'source region of the Yangtze River'], box: [90, 32, 98, 36], weight: 2 },
  { name: ['珠穆朗玛峰', 'Mount Qomolangma (Everest)'], box: [86.7, 27.8, 87.1, 28.1], weight: 2 },
  { name: ['那曲', 'Nagqu'], box: [91, 31, 93, 32.5], weight: 1 },
];
const ARCTIC: Place[] = [
  { name: ['北极', 'Arctic'], box: [-180, 66.5, 180, 90], weight: 6 },
  { name: ['北冰洋', 'Arctic Ocean'], box: [-180, 70, 180, 90], weight: 5 },
  { name: ['格陵兰', 'Greenland'], box: [-73, 59, -11, 84], weight: 4 },
  { name: ['斯瓦尔巴群岛', 'Svalbard'], box: [10, 76, 34, 81], weight: 3 },
  { name: ['黄河站', 'Yellow River Station'], box: [11.9, 78.9, 12, 79], weight: 1 },
  { name: ['阿拉斯加', 'Alaska'], box: [-170, 51, -129, 72], weight: 3 },
  { name: ['西伯利亚', 'Siberia'], box: [60, 50, 140, 77], weight: 3 },
];
const ANTARCTIC: Place[] = [
  { name: ['南极', 'Antarctica'], box: [-180, -90, 180, -60], weight: 6 },
  { name: ['南大洋', 'Southern Ocean'], box: [-180, -78, 180, -50], weight: 3 },
  { name: ['东南极', 'East Antarctica'], box: [0, -90, 180, -65], weight: 3 },
  { name: ['南极半岛', 'Antarctic Peninsula'], box: [-75, -75, -55, -62], weight: 2 },
  { name: ['中山站', 'Zhongshan Station'], box: [76.3, -69.4, 76.4, -69.3], weight: 2 },
  { name: ['昆仑站', 'Kunlun Station'], box: [77, -80.5, 77.2, -80.3], weight: 1 },
  { name: ['长城站', 'Great Wall Station'], box: [-59, -62.3, -58.9, -62.2], weight: 1 },
  { name: ['普里兹湾', 'Prydz Bay'], box: [70, -70, 80, -66], weight: 2 },
];
/** Boxes whose west longitude is greater than their east one: they cross the 180th meridian. */
const ACROSS_180: Place[] = [
  { name: ['白令海', 'Bering Sea'], box: [162, 52, -157, 66], weight: 3 },
  { name: ['楚科奇半岛', 'Chukotka'], box: [160, 62, -170, 70], weight: 2 },
  { name: ['阿留申群岛', 'Aleutian Islands'], box: [172, 51, -164, 55], weight: 2 },
  { name: ['罗斯海', 'Ross Sea'], box: [160, -78, -150, -70], weight: 2 },
];

const DISCIPLINES: Pair[] = [
  ['冰川学', 'glaciology'],
  ['水文学', 'hydrology'],
  ['气象学', 'meteorology'],
  ['冻土学', 'geocryology'],
  ['生态学', 'ecology'],
  ['遥感科学', 'remote sensing'],
  ['自然地理学', 'physical geography'],
  ['大气科学', 'atmospheric sciences'],
  ['海洋学', 'oceanography'],
  ['地球化学', 'geochemistry'],
];

const PRODUCTS: Pair[] = [
  ['数据集', 'dataset'],
  ['观测数据', 'observations'],
  ['逐日数据集', 'daily dataset'],
  ['月尺度产品', 'monthly product'],
  ['遥感反演产品', 'satellite retrievals'],
  ['空间分布数据', 'gridded distribution'],
  ['模拟数据', 'model simulations'],
  ['再分析数据', 'reanalysis'],
  ['站点观测数据', 'station observations'],
  ['编目数据', 'inventory'],
];
const METHODS: Pair[] = [
  ['Landsat影像', 'Landsat imagery'],
  ['MODIS产品', 'MODIS products'],
  ['Sentinel-2影像', 'Sentinel-2 imagery'],
  ['GRACE重力卫星', 'GRACE gravimetry'],
  ['ICESat-2激光测高', 'ICESat-2 laser altimetry'],
  ['自动气象站', 'automatic weather stations'],
  ['涡动相关系统', 'eddy covariance systems'],
  ['探地雷达', 'ground-penetrating radar'],
  ['钻孔测温', 'borehole thermometry'],
  ['无人机摄影测量', 'UAV photogrammetry'],
  ['被动微波亮温', 'passive microwave brightness temperatures'],
  ['区域气候模式', 'a regional climate model'],
];
const INSTITUTES: Pair[] = [
  ['中国科学院青藏高原研究所', 'Institute of Tibetan Plateau Research, CAS'],
  ['中国科学院西北生态环境资源研究院', 'Northwest Institute of Eco-Environment and Resources, CAS'],
  ['中国科学院空天信息创新研究院', 'Aerospace Information Research Institute, CAS'],
  ['中国科学院地理科学与资源研究所', 'Institute of Geographic Sciences and Natural Resources Research, CAS'],
  ['中国极地研究中心', 'Polar Research Institute of China'],
  ['中国气象科学研究院', 'Chinese Academy of Meteorological Sciences'],
  ['兰州大学', 'Lanzhou University'],
  ['北京师范大学', 'Beijing Normal University'],
  ['中山大学', 'Sun Yat-sen University'],
  ['南京大学', 'Nanjing University'],
  ['武汉大学', 'Wuhan University'],
  ['清华大学', 'Tsinghua University'],
];
const SURNAMES: Pair[] = [
  ['王', 'Wang'],
  ['李', 'Li'],
  ['张', 'Zhang'],
  ['刘', 'Liu'],
  ['陈', 'Chen'],
  ['杨', 'Yang'],
  ['赵', 'Zhao'],
  ['黄', 'Huang'],
  ['周', 'Zhou'],
  ['吴', 'Wu'],
  ['徐', 'Xu'],
  ['孙', 'Sun'],
  ['马', 'Ma'],
  ['朱', 'Zhu'],
  ['胡', 'Hu'],
  ['郭', 'Guo'],
  ['何', 'He'],
  ['丁', 'Ding'],
];
const GIVEN: Pair[] = [
  ['新', 'Xin'],
  ['磊', 'Lei'],
  ['伟', 'Wei'],
  ['芳', 'Fang'],
  ['敏', 'Min'],
  ['静', 'Jing'],
  ['强', 'Qiang'],
  ['军', 'Jun'],
  ['洋', 'Yang'],
  ['明虎', 'Minghu'],
  ['青柏', 'Qingbai'],
  ['檀栋', 'Tandong'],
  ['世英', 'Shiying'],
  ['晓明', 'Xiaoming'],
  ['建平', 'Jianping'],
  ['海鹏', 'Haipeng'],
];
const LICENSES = [
  'CC BY 4.0',
  'CC BY 4.0',
  'CC BY 4.0',
  'CC BY 4.0',
  'CC BY 4.0',
  'CC BY-NC 4.0',
  'CC BY-NC 4.0',
  'CC BY-SA 4.0',
  'CC BY-NC-SA 4.0',
  'CC BY-ND 4.0',
  'CC BY-NC-ND 4.0',
];
const SHARING = ['online', 'online', 'online', 'online', 'offlineCenter', 'offlineEmail'];
const RESOLUTIONS = ['hourly', 'daily', 'daily', 'monthly', 'monthly', 'yearly', '1-10years', '10-100years'];
const SUBTOPICS = {
  '5': ['XDA20-01-01', 'XDA20-01-02', 'XDA20-02-01', 'XDA20-03-02', 'XDA20-04-01', 'XDA20-05-03', 'XDA20-06-01', 'XDA19-01-01', 'XDA19-03-02'],
  '6': ['ZKK-01', 'ZKK-02', 'ZKK-03', 'XDA20-07-01', 'XDA19-05-01'],
};

/** The two-character Chinese and English words the bench asks for, all of them in the vocabulary. */
export const CHINESE_QUERIES = ['冰川', '冻土', '积雪', '海冰', '湖泊', '降水', '径流', '冰盖', '植被', '气温'];
export const ENGLISH_QUERIES = ['glacier', 'permafrost', 'snow', 'lake', 'precipitation', 'runoff', 'vegetation', 'sea ice', 'aerosol', 'grassland'];
export const PLACE_VALUES = PLATEAU.slice(0, 8).map((p) => p.name[1].toLowerCase());
export const THEME_VALUES = THEMES.slice(0, 10).map(([[, en]]) => en);

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}
function weighted<T>(rand: () => number, items: readonly T[], weightOf: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + weightOf(item), 0);
  let r = rand() * total;
  for (const item of items) {
    r -= weightOf(item);
    if (r <= 0) return item;
  }
  return items.at(-1)!;
}
const round = (x: number) => Math.round(x * 100) / 100;

/** A box inside a region's box (across the 180th meridian when the region is). */
function boxIn(rand: () => number, [west, south, east, north]: Box): Box {
  const span = west <= east ? east - west : 360 - (west - east);
  if (span >= 359 && rand() < 0.7) return [west, south, east, north]; // a polar cap, whole
  const width = span * (0.2 + rand() * 0.8);
  const w = west + rand() * (span - width);
  const wrap = (x: number) => (x > 180 ? x - 360 : x);
  const height = (north - south) * (0.2 + rand() * 0.8);
  const s = south + rand() * (north - south - height);
  return [round(wrap(w)), round(s), round(wrap(w + width)), round(s + height)];
}

function date(year: number, rand: () => number): string {
  const month = 1 + Math.floor(rand() * 12);
  const day = 1 + Math.floor(rand() * 28);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Record `n` of the catalogue. */
export function catalogueRecord(n: number, seed = 20261123): Record<string, unknown> {
  const rand = random(seed ^ Math.imul(n + 1, 2654435761));
  const language = rand() < 0.7 ? 'zh-hans' : 'en';
  const themes: Pair[] = [];
  const themeCount = 2 + Math.floor(rand() * 3);
  while (themes.length < themeCount) {
    const [theme] = weighted(rand, THEMES, ([, w]) => w);
    if (!themes.includes(theme)) themes.push(theme);
  }
  const region = rand();
  const pool = region < 0.62 ? PLATEAU : region < 0.78 ? ARCTIC : region < 0.9 ? ANTARCTIC : region < 0.96 ? ACROSS_180 : PLATEAU;
  const place = weighted(rand, pool, (p) => p.weight);
  const places = [place, ...(rand() < 0.4 ? [weighted(rand, pool, (p) => p.weight)] : [])].filter((p, i, all) => all.indexOf(p) === i);
  const box = region >= 0.96 ? null : boxIn(rand, place.box);
  const discipline = pick(rand, DISCIPLINES);
  const product = pick(rand, PRODUCTS);
  const method = pick(rand, METHODS);
  const second = pick(rand, METHODS);
  const published = 2000 + Math.min(26, Math.floor(Math.sqrt(rand()) * 27));
  const start = Math.max(1979, published - 1 - Math.floor(rand() * 30));
  const end = Math.min(2025, start + Math.floor(rand() * (published - start + 1)));
  const [mainTheme, otherTheme = themes[0]!] = themes;

  const zhTitle = `${place.name[0]}${mainTheme![0]}${themes.length > 3 ? `与${otherTheme[0]}` : ''}${product[0]}（${start}—${end}年）`;
  const enTitle = `${capitalise(mainTheme![1])}${themes.length > 3 ? ` and ${otherTheme[1]}` : ''} ${product[1]} of the ${place.name[1]} (${start}–${end})`;
  const zhAbstract = [
    `本数据集基于${method[0]}和${second[0]}，提供了${place.name[0]}${start}—${end}年的${mainTheme![0]}${product[0]}。`,
    `数据经过质量控制和交叉验证，与地面观测相比的均方根误差小于${(1 + rand() * 9).toFixed(1)}%。`,
    `时间分辨率为${pick(rand, ['逐时', '逐日', '逐月', '逐年'])}，空间分辨率为${pick(rand, ['30米', '250米', '500米', '1公里', '0.05度', '0.25度'])}。`,
    `该数据可用于研究${place.name[0]}${otherTheme[0]}变化及其对区域水资源和生态环境的影响，为${discipline[0]}研究提供基础数据。`,
  ].join('');
  const enAbstract = [
    `This dataset provides ${product[1]} of ${mainTheme![1]} over the ${place.name[1]} from ${start} to ${end}, derived from ${method[1]} and ${second[1]}.`,
    `The data were quality controlled and cross-validated against in-situ measurements, with a root-mean-square error below ${(1 + rand() * 9).toFixed(1)} percent.`,
    `The ${pick(rand, ['hourly', 'daily', 'monthly', 'yearly'])} data have a spatial resolution of ${pick(rand, ['30 m', '250 m', '500 m', '1 km', '0.05 degrees', '0.25 degrees'])}.`,
    `It supports studies of ${otherTheme[1]} changes in the ${place.name[1]} and their effects on regional water resources and ecosystems, and serves ${discipline[1]} research.`,
  ].join(' ');

  const fundDraw = rand();
  const funds: Record<string, unknown>[] = [];
  let subtopics = {};
  if (fundDraw < 0.4) {
    funds.push({ id: '5', name: '三极平台', name_en: 'Three Poles platform', is_core: true });
    subtopics = { subtopic_three_pole: pick(rand, SUBTOPICS['5']) };
  } else if (fundDraw < 0.6) {
    funds.push({ id: '6', name: '第三极（青藏高原）中心', name_en: 'Third Pole (Tibetan Plateau) centres', is_core: true });
    subtopics = { subtopic_third_pole: pick(rand, SUBTOPICS['6']) };
  }
  if (rand() < 0.6) {
    const award = Math.floor(rand() * 200);
    funds.push({ name: '国家自然科学基金', name_en: 'National Natural Science Foundation of China', serial_number: String(41900000 + award * 37) });
  }

  const authorCount = 1 + Math.floor(rand() * 5);
  const authors = Array.from({ length: authorCount }, (_, i) => {
    const [surname, given, institute] = [pick(rand, SURNAMES), pick(rand, GIVEN), pick(rand, INSTITUTES)];
    return {
      name: `${surname[0]}${given[0]}`,
      email: `${given[1].toLowerCase()}.${surname[1].toLowerCase()}@example.org`,
      affiliation: institute[0],
      role: i === 0 ? 'resourceProvider' : 'principalInvestigator',
      event_date: `${published}-01-01`,
      sort: i,
      translations: [{ language: 'en', name: `${given[1]} ${surname[1]}`, affiliation: institute[1], address: '' }],
    };
  });

  const keyword = ([zh, en]: Pair, type: string) =>
    language === 'en'
      ? { name: en, type, language, translations: [{ language: 'zh-hans', name: zh }] }
      : { name: zh, type, language, translations: [{ language: 'en', name: en }] };
  const own = language === 'en' ? { title: enTitle, description: enAbstract } : { title: zhTitle, description: zhAbstract };
  const translation = language === 'en' ? { language: 'zh-hans', title: zhTitle, description: zhAbstract } : { language: 'en', title: enTitle, description: enAbstract };
  return {
    language,
    ...own,
    doi: `10.11888/${mainTheme![1].replace(/\W+/g, '')}.tpdc.${String(300000 + n)}`,
    license: pick(rand, LICENSES),
    sharing_policy: pick(rand, SHARING),
    temporal_resolution: pick(rand, RESOLUTIONS),
    time_start: `${start}-01-01`,
    time_end: `${end}-12-31`,
    ...(box ? { west: box[0], south: box[1], east: box[2], north: box[3] } : {}),
    ...subtopics,
    dist_unit: '国家青藏高原科学数据中心',
    published_at: `${date(published, rand)}T08:00:00.000Z`,
    translations: [translation],
    keywords: [
      ...themes.map((t) => keyword(t, 'theme')),
      ...places.map((p) => keyword(p.name, 'place')),
      keyword(discipline, 'discipline'),
      keyword([`${start}—${end}年`, `${start}-${end}`], 'temporal'),
    ],
    authors,
    funds,
  };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
