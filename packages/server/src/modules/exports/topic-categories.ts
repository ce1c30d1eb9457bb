import type { CitableRecord } from './citable-record.js';

/**
 * ISO 19115's topic categories (MD_TopicCategoryCode, mandatory for a dataset) of a record, from its
 * discipline and theme keywords: ISO 19139 `gmd:topicCategory` and DIF 10 `ISO_Topic_Category`.
 *
 * Each keyword, in either language, is matched against the table below in its order: an English
 * word matches at the start of a word of the keyword (`glacier` matches "Glaciers" and "glacier
 * mass balance", not "subglacier"), a Chinese word anywhere in it. A record gets every category one
 * of its discipline or theme keywords matches, discipline keywords first, each once (an English word ending in `$` matches a whole word only: `dem$` is not
 * "demography"). A record none of
 * whose keywords matches gets `DEFAULT_TOPIC_CATEGORY`: the portal publishes Earth science data.
 *
 * The table follows ISO 19115's definitions of the categories (B.5.27): glaciers, snow, lakes and
 * rivers are inland waters; permafrost, soils, geology and landforms geoscientific information;
 * sea ice and the seas oceans. Chinese words are chosen so that a longer word holding them does not
 * mean something else (海洋 and 海冰, not 海, which 海拔 "altitude" holds).
 */

export const TOPIC_CATEGORIES = [
  'farming',
  'biota',
  'boundaries',
  'climatologyMeteorologyAtmosphere',
  'economy',
  'elevation',
  'environment',
  'geoscientificInformation',
  'health',
  'imageryBaseMapsEarthCover',
  'intelligenceMilitary',
  'inlandWaters',
  'location',
  'oceans',
  'planningCadastre',
  'society',
  'structure',
  'transportation',
  'utilitiesCommunication',
] as const;
export type TopicCategory = (typeof TOPIC_CATEGORIES)[number];

export const DEFAULT_TOPIC_CATEGORY: TopicCategory = 'geoscientificInformation';

/** [category, English word starts (or whole words, ending in `$`), Chinese words]. */
export const TOPIC_CATEGORY_TABLE: readonly (readonly [TopicCategory, readonly string[], readonly string[]])[] = [
  [
    'inlandWaters',
    ['glaci', 'snow', 'lake', 'river', 'hydrolog', 'runoff', 'stream', 'water', 'groundwater', 'wetland', 'flood', 'ice sheet', 'ice cap'],
    ['冰川', '积雪', '雪', '湖泊', '河流', '水文', '径流', '水资源', '湿地', '洪水', '冰盖', '冰湖'],
  ],
  ['oceans', ['ocean', 'sea ice', 'marine', 'sea level', 'sea surface', 'coast', 'tide'], ['海洋', '海冰', '海平面', '海岸', '海表', '潮汐']],
  [
    'climatologyMeteorologyAtmosphere',
    ['climat', 'meteorolog', 'atmospher', 'weather', 'precipitation', 'rainfall', 'air temperature', 'temperature', 'wind', 'aerosol', 'radiation', 'evapotranspiration'],
    ['气候', '气象', '大气', '降水', '降雨', '气温', '天气', '风速', '气溶胶', '辐射', '蒸散'],
  ],
  [
    'geoscientificInformation',
    [
      'geolog',
      'geophysic',
      'geomorpholog',
      'geochem',
      'permafrost',
      'frozen ground',
      'soil',
      'earthquake',
      'seism',
      'landslide',
      'erosion',
      'glacial geology',
      'sediment',
      'tecton',
    ],
    ['地质', '地球物理', '地貌', '地球化学', '冻土', '土壤', '地震', '滑坡', '侵蚀', '沉积', '构造'],
  ],
  [
    'biota',
    ['ecolog', 'vegetation', 'biolog', 'species', 'wildlife', 'biodiversity', 'forest', 'grassland', 'plant', 'animal', 'phenolog'],
    ['生态', '植被', '生物', '物种', '野生动物', '森林', '草地', '草原', '植物', '动物', '物候'],
  ],
  ['environment', ['environment', 'pollution', 'pollutant', 'nature reserve', 'conservation', 'landscape'], ['环境', '污染', '自然保护区', '保护区', '景观']],
  ['elevation', ['elevation', 'dem$', 'digital elevation', 'topograph', 'altitude', 'bathymetr'], ['高程', '地形', '海拔', '数字高程']],
  [
    'imageryBaseMapsEarthCover',
    ['remote sensing', 'land cover', 'land use', 'imagery', 'satellite', 'landsat', 'modis', 'sentinel', 'aerial photo'],
    ['遥感', '土地覆盖', '土地覆被', '土地利用', '影像', '卫星'],
  ],
  ['farming', ['agricultur', 'crop', 'livestock', 'grazing', 'irrigation', 'farm'], ['农业', '作物', '畜牧', '放牧', '灌溉', '农田']],
  ['society', ['population', 'demograph', 'culture', 'archaeolog', 'settlement', 'census', 'education', 'social'], ['人口', '社会', '文化', '考古', '聚落', '教育']],
  ['economy', ['econom', 'tourism', 'mining', 'industry'], ['经济', '旅游', '矿产', '工业']],
  ['health', ['health', 'disease', 'medic'], ['健康', '疾病', '医学']],
  ['boundaries', ['boundar', 'border', 'administrative division'], ['边界', '国界', '行政区']],
  ['transportation', ['transport', 'road', 'railway', 'traffic'], ['交通', '道路', '铁路']],
  ['structure', ['building', 'infrastructure', 'dam$', 'dams$'], ['建筑', '基础设施', '水坝']],
  ['utilitiesCommunication', ['energy', 'power', 'hydropower', 'communication'], ['能源', '电力', '水电', '通信']],
  ['location', ['place name', 'gazetteer', 'geodesy', 'positioning'], ['地名', '大地测量', '定位']],
  ['planningCadastre', ['planning', 'cadastr', 'zoning'], ['规划', '地籍']],
  ['intelligenceMilitary', ['military'], ['军事']],
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const englishPattern = (word: string) => (word.endsWith('$') ? `${escapeRegExp(word.slice(0, -1))}(?![\\p{L}\\p{N}])` : escapeRegExp(word));

/**
 * A test of a keyword text against English word starts (whole words when ending in `$`) and Chinese
 * words, as the tables here and in dif10.ts are matched.
 */
export function keywordMatcher(english: readonly string[], chinese: readonly string[]): (text: string) => boolean {
  const pattern = new RegExp(`(^|[^\\p{L}\\p{N}])(${english.map(englishPattern).join('|')})`, 'iu');
  return (text) => pattern.test(text) || chinese.some((word) => text.includes(word));
}

const MATCHERS = TOPIC_CATEGORY_TABLE.map(([category, english, chinese]) => ({ category, matches: keywordMatcher(english, chinese) }));

/** The categories one keyword text matches, in the table's order. */
export function topicCategoriesOfText(text: string): TopicCategory[] {
  return MATCHERS.filter(({ matches }) => matches(text)).map(({ category }) => category);
}

/** The record's topic categories (see above); never empty. */
export function topicCategoriesOf(record: Pick<CitableRecord, 'keywords'>): TopicCategory[] {
  const categories = new Set<TopicCategory>();
  for (const type of ['discipline', 'theme'] as const) {
    for (const keyword of record.keywords.filter((k) => k.type === type)) {
      for (const text of [keyword.name.en, keyword.name['zh-hans']]) for (const category of topicCategoriesOfText(text)) categories.add(category);
    }
  }
  return categories.size ? [...categories] : [DEFAULT_TOPIC_CATEGORY];
}
