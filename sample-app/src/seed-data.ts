// The business's menu as first loaded into an empty database (migration 0002). Names are
// distinct across scenes so an agent's answer that invents a dish is easy to spot.
export const TIMES_OF_DAY = ["morning", "midday", "afternoon", "evening", "late_night"] as const;
export type TimeOfDay = (typeof TIMES_OF_DAY)[number];

export interface SeedDish {
  id: string;
  name: string;
  nameZh: string;
  /** yuan (CNY) */
  price: number;
  tags: string[];
  spicy: boolean;
  vegetarian: boolean;
  calories: number;
}

export interface SeedScene {
  id: string;
  name: string;
  nameZh: string;
  description: string;
  timeOfDay: TimeOfDay;
  dishes: SeedDish[];
}

const dish = (
  id: string,
  name: string,
  nameZh: string,
  price: number,
  calories: number,
  tags: string[],
  flags: { spicy?: boolean; vegetarian?: boolean } = {},
): SeedDish => ({
  id,
  name,
  nameZh,
  price,
  calories,
  tags,
  spicy: flags.spicy ?? false,
  vegetarian: flags.vegetarian ?? false,
});

export const SEED_SCENES: SeedScene[] = [
  {
    id: "breakfast",
    name: "Breakfast",
    nameZh: "早餐",
    description: "Quick, warm breakfasts for commuters, ready to take away from 6:30.",
    timeOfDay: "morning",
    dishes: [
      dish("fresh-soy-milk", "Freshly Ground Soy Milk", "现磨豆浆", 6, 120, ["drink", "hot"], { vegetarian: true }),
      dish("pork-cabbage-buns", "Pork and Cabbage Steamed Buns (2)", "猪肉白菜包子（2个）", 8, 380, [
        "steamed",
        "takeaway",
      ]),
      dish("youtiao", "Youtiao Fried Dough Stick", "油条", 4, 270, ["fried", "takeaway"], { vegetarian: true }),
      dish("century-egg-pork-congee", "Century Egg and Lean Pork Congee", "皮蛋瘦肉粥", 12, 250, ["congee", "hot"]),
      dish("jianbing-guozi", "Jianbing Guozi Crepe", "煎饼果子", 10, 450, ["street-food", "takeaway"], {
        vegetarian: true,
      }),
      dish("tea-egg", "Tea-Marbled Egg", "茶叶蛋", 3, 80, ["egg", "takeaway"], { vegetarian: true }),
    ],
  },
  {
    id: "business-lunch",
    name: "Business Lunch",
    nameZh: "商务午餐",
    description: "Set lunches for office teams, served within 15 minutes, with rice and a soup of the day.",
    timeOfDay: "midday",
    dishes: [
      dish("kung-pao-chicken-set", "Kung Pao Chicken Set", "宫保鸡丁套餐", 38, 720, ["set-meal", "stir-fry"], {
        spicy: true,
      }),
      dish("braised-beef-brisket-rice", "Braised Beef Brisket on Rice", "红烧牛腩饭", 42, 780, ["set-meal", "braised"]),
      dish("vegetarian-mapo-tofu-set", "Vegetarian Mapo Tofu Set", "素麻婆豆腐套餐", 30, 560, ["set-meal", "tofu"], {
        spicy: true,
        vegetarian: true,
      }),
      dish("steamed-sea-bass-set", "Steamed Sea Bass Set", "清蒸鲈鱼套餐", 58, 520, ["set-meal", "fish", "steamed"]),
      dish("stir-fried-seasonal-greens", "Stir-Fried Seasonal Greens", "清炒时蔬", 18, 150, ["side", "stir-fry"], {
        vegetarian: true,
      }),
      dish("west-lake-beef-soup", "West Lake Beef Soup", "西湖牛肉羹", 16, 180, ["soup"]),
    ],
  },
  {
    id: "afternoon-tea",
    name: "Afternoon Tea",
    nameZh: "下午茶",
    description: "Cantonese-style dim sum and sweets with milk tea, served 14:00 to 17:00.",
    timeOfDay: "afternoon",
    dishes: [
      dish("shrimp-har-gow", "Crystal Shrimp Dumplings (4)", "水晶虾饺（4只）", 28, 200, [
        "dim-sum",
        "steamed",
        "seafood",
      ]),
      dish("char-siu-bao", "Barbecue Pork Buns (3)", "叉烧包（3个）", 20, 450, ["dim-sum", "steamed"]),
      dish("portuguese-egg-tarts", "Portuguese Egg Tarts (3)", "葡式蛋挞（3个）", 18, 540, ["dessert", "baked"], {
        vegetarian: true,
      }),
      dish("pineapple-bun-butter", "Pineapple Bun with Butter", "冰火菠萝油", 16, 420, ["baked", "sweet"], {
        vegetarian: true,
      }),
      dish("hong-kong-milk-tea", "Hong Kong Milk Tea", "港式奶茶", 18, 220, ["drink"], { vegetarian: true }),
      dish("mango-pomelo-sago", "Mango Pomelo Sago", "杨枝甘露", 22, 310, ["dessert", "cold"], { vegetarian: true }),
    ],
  },
  {
    id: "family-dinner",
    name: "Family Dinner",
    nameZh: "家庭晚餐",
    description: "Home-style dishes to share for three to six people, best ordered together with rice.",
    timeOfDay: "evening",
    dishes: [
      dish("sweet-sour-pork-ribs", "Sweet and Sour Pork Ribs", "糖醋排骨", 68, 650, ["shareable", "braised"]),
      dish("red-braised-pork-belly", "Red-Braised Pork Belly", "红烧肉", 72, 820, ["shareable", "braised"]),
      dish("sichuan-boiled-fish", "Sichuan Boiled Fish in Chili Oil", "水煮鱼", 88, 760, ["shareable", "fish"], {
        spicy: true,
      }),
      dish("tomato-egg-stir-fry", "Tomato and Egg Stir-Fry", "番茄炒蛋", 28, 260, ["home-style", "stir-fry"], {
        vegetarian: true,
      }),
      dish("garlic-broccoli", "Garlic Broccoli", "蒜蓉西兰花", 26, 140, ["side", "stir-fry"], { vegetarian: true }),
      dish("corn-pork-rib-soup", "Corn and Pork Rib Soup", "玉米排骨汤", 48, 420, ["soup", "shareable"]),
      dish("steamed-rice-bowl", "Steamed Jasmine Rice (bowl)", "米饭", 3, 230, ["staple"], { vegetarian: true }),
    ],
  },
  {
    id: "late-night-snack",
    name: "Late-Night Snack",
    nameZh: "夜宵",
    description: "Grill and street-food classics for the late crowd, kitchen open until 2:00.",
    timeOfDay: "late_night",
    dishes: [
      dish("cumin-lamb-skewers", "Cumin Lamb Skewers (5)", "孜然羊肉串（5串）", 30, 480, ["grill"], { spicy: true }),
      dish("mala-crayfish", "Mala Spicy Crayfish (500 g)", "麻辣小龙虾（500克）", 128, 690, ["seafood", "shareable"], {
        spicy: true,
      }),
      dish("garlic-grilled-eggplant", "Garlic Grilled Eggplant", "蒜蓉烤茄子", 22, 260, ["grill"], {
        vegetarian: true,
      }),
      dish("grilled-chicken-wings", "Grilled Chicken Wings (4)", "烤鸡翅（4只）", 28, 440, ["grill"]),
      dish("pork-wonton-soup", "Pork Wonton Soup", "鲜肉馄饨", 18, 380, ["soup", "hot"]),
      dish("cold-sesame-noodles", "Cold Sesame Noodles", "麻酱凉面", 16, 520, ["noodles", "cold"], {
        vegetarian: true,
      }),
    ],
  },
];
