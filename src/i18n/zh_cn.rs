//! 简体中文：页面上的每一句话。结构与 `en.rs` 相同，由编译器检查。

use super::{TourWords, Words};

/// The Simplified Chinese catalog.
pub static WORDS: Words = Words {
    page_title: "hashring-lab — 一致性哈希可视化",
    tagline: "0‥2³² 哈希环上的一致性哈希 —— 看清到底哪些键会迁移。",
    language: "语言",
    ring_section: "哈希环",
    dismiss: "关闭",

    keys_per_server: "每台服务器的键数",
    col_server: "服务器",
    col_weight: "权重",
    col_vnodes: "虚拟节点",
    col_keys: "键数",
    col_share: "占比",
    col_ideal: "理想",
    badge_down: "宕机",
    weight_of: |name| format!("{name} 的权重"),
    fail: "宕机",
    recover: "恢复",
    fail_server: |name| format!("让 {name} 宕机"),
    recover_server: |name| format!("恢复 {name}"),
    fail_hint: "宕机：恢复之前，它的键转到别的服务器",
    recover_hint: "恢复：它取回自己的键",
    remove_server_named: |name| format!("删除 {name}"),
    new_server_name: "新服务器名称",
    add_server: "添加服务器",
    add_server_hint: "添加服务器（A）",
    remove_server: "删除服务器",
    remove_server_hint: "删除最后一台服务器（R）",

    scenario: "场景",
    algorithm: "算法",
    hash: "哈希函数",
    virtual_nodes: "虚拟节点",
    vnodes_slider: "每台服务器的虚拟节点数（滑块）",
    keys: "键",
    key_count_label: |limit| format!("键的数量（最多 {limit}）"),
    key_pattern_label: "键名模板，{i} 处填编号",
    set: "设置",
    seed: "随机种子",
    animation: "动画",
    play: "▶ 播放",
    pause: "❚❚ 暂停",
    play_hint: "播放或暂停行走的键（空格）",
    speed: "动画速度",

    lookup_label: "要查找的键",
    lookup_placeholder: "查找一个键，例如 user:42",
    look_up: "查找",
    scores_caption: "每台服务器对该键的得分",
    wins: "← 胜出",

    load_heading: "各服务器负载",
    load_chart_label: "每台服务器键数的柱状图；空心框是上次变更前的键数，虚线是平均值",
    mean: "平均",
    stddev: "标准差",
    peak_mean: "峰值 / 平均",
    moved_ideal: "迁移（理想）",
    stayed: "未迁移",
    share_heading: "哈希环占比",
    share_chart_label: "每台服务器占哈希环比例的柱状图；虚线是均分时的比例",
    share_caption: "各服务器的哈希环占比",
    no_arcs: "这个算法没有环上的弧段：每个键单独放置，所以只看上面的键数。",

    ring_label: |servers, keys| {
        format!("哈希环：{servers} 台服务器，{keys} 个键。滚轮或双指缩放，拖动平移。")
    },
    zoom: "缩放",
    zoom_in: "放大（+）",
    zoom_out: "缩小（−）",
    zoom_reset: "还原缩放（0）",
    down_label: |name| format!("{name} ✕ 宕机"),
    centre_ring: |servers, vnodes, keys| format!("{servers} 台服务器 · {vnodes} 个虚拟节点 · {keys} 个键"),
    centre_slots: |masters, keys| format!("{masters} 个主节点 · 16,384 个槽 · {keys} 个键"),
    centre_other: |servers, keys| format!("{servers} 台服务器 · {keys} 个键"),
    hover_position: |grouped, p| format!("位置 {grouped}（0x{p:08x}）"),
    hover_slots: |last, name| format!("截至槽 {last} 的槽段 → {name}"),
    hover_server: |name| format!("服务器 {name}"),
    hover_share: |share| format!("占哈希环的 {:.3}%", share * 100.0),
    hover_key: |key| format!("键 {key}"),
    hover_owner: |name| format!("归属 {name}"),
    nobody: "无（没有服务器在线）",

    algorithm_titles: [
        "一致性哈希环",
        "哈希取模（mod N）",
        "最高随机权重（HRW）",
        "CARP（MD5，取最小）",
        "Redis Cluster 哈希槽",
    ],
    intros: [
        "每个键从自己的哈希值出发，顺时针找到第一个虚拟节点。添加、删除或让服务器宕机，看哪些弧段和键会迁移。",
        "每个键放到编号为 hash(key) mod N 的服务器上。添加或删除服务器会改变 N，几乎所有键都会迁移。",
        "每个键用 hash(服务器 + 键) 给所有服务器打分，归得分最高者；新服务器只拿走它现在胜出的那些键。",
        "CARP（种子文章 004）：每个键归 MD5(服务器 + 键) 最小的服务器；新服务器大约拿走 1/(N+1) 的键。",
        "Redis Cluster：键的槽号是 CRC16(key) mod 16384，每个主节点负责连续的槽段；添加主节点会把整段的槽迁给它。",
    ],

    phases: ["正在计算键的哈希", "正在放置虚拟节点", "正在放置键"],
    progress: |what, done, total| format!("{what}：{done} / {total}…"),
    added: |n| format!("添加了 {n}"),
    removed: |n| format!("删除了 {n}"),
    failed: |n| format!("{n} 宕机"),
    recovered: |n| format!("{n} 已恢复"),
    weight_set: |n, w| format!("{n} 的权重设为 {w}"),
    vnodes_set: |v| format!("虚拟节点数设为 {v}"),
    keys_set: |k| format!("键设为 {k}"),
    algorithm_set: |a| format!("切换到 {a}"),
    hash_set: |h| format!("哈希函数切换到 {h}"),
    moved_of: |what, moved, keys, pct| format!("{what}：{keys} 个键中迁移了 {moved} 个（{pct}"),
    ideal: |pct| format!("；理想 {pct}"),
    moved_from: |list| format!(" —— 来自 {list}"),
    moved_to: |list| format!(" —— 迁往 {list}"),
    list_separator: "、",
    close_paren: "）",

    explain_ring: |hash, key, pos, vnode, at, server| {
        format!("\"{key}\" 的 {hash} 哈希值 = 0x{pos:08x}；顺时针第一个虚拟节点是位于 0x{at:08x} 的 {vnode} → 服务器 {server}")
    },
    explain_nobody: |hash, key, pos| {
        format!("\"{key}\" 的 {hash} 哈希值 = 0x{pos:08x}，但没有服务器在线，所以它不归任何服务器")
    },
    explain_tag: |tag| format!("（哈希标签 \"{tag}\"）"),
    explain_slot: |key, tag, slot, served| format!("CRC16(\"{key}\"){tag} mod 16384 = 槽 {slot}；{served}"),
    slot_served: |slot, master| format!("槽 {slot} 由 {master} 负责"),
    slot_failover: |slot, master, by| {
        format!("槽 {slot} 的主节点 {master} 宕机，由顺时针下一个在线的槽段负责：{by}")
    },
    slot_nobody: |slot, master| {
        format!("槽 {slot} 的主节点 {master} 宕机，且没有服务器在线，所以它不归任何服务器")
    },
    explain_modulo: |hash, key, value, n, i, server| {
        format!("\"{key}\" 的 {hash} 哈希值 = {value}；{value} mod {n} = {i} → 在线的 {n} 台服务器中的第 {i} 号：{server}")
    },
    explain_modulo_nobody: |hash, key, value| {
        format!("\"{key}\" 的 {hash} 哈希值 = {value}，但没有服务器在线，所以它不归任何服务器")
    },
    explain_scores_nobody: |key| {
        format!("每台服务器本应给 \"{key}\" 打分，但没有服务器在线，所以它不归任何服务器")
    },
    explain_scores: |what, highest, owner| {
        let rule = if highest { "最高" } else { "最小" };
        format!("每台服务器用 {what} 给这个键打分；得分{rule}者胜出 → {owner}")
    },
    weighted_score: |score, hash, weight| format!("{score:.6}（哈希 0x{hash:08x}，权重 {weight}）"),

    link_not_loaded: |reasons| {
        format!("未能载入此链接的场景：{reasons}。现在显示默认场景；在你做出改动之前，地址栏仍保留你的链接。")
    },
    link_problem: |reasons| format!("此链接有问题：{reasons}。"),
    busy: |n| format!("仍在为上一步放置键；到目前为止忽略了 {n} 个操作。请等进度条走完。"),
    ignored: |n| format!("有 {n} 个操作在放置键期间到达，已被忽略；现在可以重试。"),
    not_applied: |reason| format!("未执行：{reason}"),

    to_light: "☀ 浅色",
    to_dark: "☾ 深色",
    present: "演示",
    present_hint: "演示模式：适合投影仪的大字号（F：全屏）",
    end_present: "结束演示",
    share: "分享与嵌入",
    copy_link: "复制链接",
    copy_embed: "复制嵌入代码",
    copied: "已复制",
    link_field: "指向当前视图的链接",
    embed_field: "嵌入代码（放进文档页面的 iframe）",
    embed_title: |algo, servers, keys| format!("hashring-lab：{algo}，{servers} 台服务器，{keys} 个键"),
    open_full: "打开完整页面 ↗",
    shortcuts: "键盘快捷键",
    shortcut_list: [
        ("A", "添加一台服务器"),
        ("R", "删除最后一台服务器"),
        ("空格", "播放或暂停行走的键"),
        ("+  −  0", "放大、缩小、还原"),
        ("← →", "导览的上一步 / 下一步（也可用 Page Up / Page Down）"),
        ("F", "全屏"),
        ("P", "演示模式"),
        ("?", "显示此列表"),
        ("Esc", "关闭此列表"),
    ],
    close: "关闭",
    export: "导出",
    png_ring: "哈希环（PNG）",
    png_load: "负载图（PNG）",
    png_share: "占比图（PNG）",
    csv_counts: "各服务器键数（CSV）",
    csv_keys: "每个键的服务器（CSV）",
    scenario_json: "场景（JSON）",
    open_scenario: "打开场景…",
    exporting: |done, total| format!("正在写出键：{done} / {total}…"),
    bad_file: |reasons| format!("未打开此文件：{reasons}。没有做任何改动。"),

    tours: "导览",
    choose_tour: "选择一个导览…",
    step_of: |k, n| format!("第 {k} 步，共 {n} 步"),
    previous: "← 上一步",
    next: "下一步 →",
    leave_tour: "退出导览",
    tour_words: [
        TourWords {
            title: "哈希取模：几乎所有键都要迁移",
            steps: &[
                |f| format!("四台服务器，编号 0 到 3；{} 个键，编号 1 到 {}。哈希取模把每个键放到编号为“键 mod 4”的服务器上：查找结果显示键 6 → 6 mod 4 = 2 → 服务器 {}。", f.keys, f.keys, f.owner()),
                |f| format!("加入第五台服务器，N 变成 5：每个键都要按“键 mod 5”重新放置。{} 个键中只有 {} 个留在原处（{}）；{} 个键迁移（{}），所有服务器都有键进出。", f.keys, f.stayed, f.stayed_pct, f.moved, f.moved_pct),
                |f| format!("只有 mod 4 和 mod 5 余数相同的键才不动，比如键 20：20 mod 5 = 0，而 20 mod 4 也是 0，所以它仍在服务器 {} 上。N 台服务器再加一台，大约只有 N+1 分之一的键不动。一致性哈希正是为解决这个问题而发明的 —— 请看“哈希环”导览。", f.owner()),
            ],
        },
        TourWords {
            title: "哈希环：只有相邻的键会迁移",
            steps: &[
                |f| format!("对象和缓存被哈希到同一个圆上，位置从 0 到 2³²−1。每个对象顺时针走，遇到的第一个缓存就是它的存储位置：cache_A 存 {} 个，cache_B 存 {} 个，cache_C 存 {} 个。", f.count("cache_A"), f.count("cache_B"), f.count("cache_C")),
                |f| format!("移除 cache_B：只有它存的 {} 个对象迁移，全部迁往顺时针的下一个缓存 {}。其他对象都留在原处。", f.moved, f.moved_to.join("、")),
                |f| format!("添加 cache_D：它只拿走自己与逆时针方向上一个缓存之间的对象 —— {} 个中的 {} 个，全部来自 {}。其他对象都不动。", f.keys, f.moved, f.moved_from.join("、")),
            ],
        },
        TourWords {
            title: "虚拟节点让哈希环均衡",
            steps: &[
                |f| format!("种子文章 002 的哈希环：四台服务器，每台一个点，像原文一样用 Java 的 String.hashCode 计算。{} 个用户键分布极不均衡：{} 有 {} 个（{}），{} 只有 {} 个。", f.keys, f.busiest.0, f.busiest.1, f.busiest_pct, f.quietest.0, f.quietest.1),
                |f| format!("换一个更好的哈希函数（xxh3）也解决不了：只有四个点时，点之间的弧段长短不一，所以 {} 仍有 {} 个键（{}）。各服务器键数的标准差是 {}。", f.busiest.0, f.busiest.1, f.busiest_pct, f.stddev),
                |f| format!("虚拟节点：每台服务器放到环上 {} 次，名为 192.168.0.1#0、192.168.0.1#1 ……，于是它拥有分散在环上的几段较短的弧。标准差现在是 {}。", f.vnodes, f.stddev),
                |f| format!("每台服务器 {} 个虚拟节点时（种子文章 000 建议 100～200 个），弧段趋于均匀：标准差降到 {}，峰值 / 平均降到 {}。", f.vnodes, f.stddev, f.peak_mean),
                |f| format!("添加第五台服务器：它拿走 {} 个键（{}；理想 {}）—— 因为它的点分散在环上，所以从每台服务器各拿一点，旧服务器之间没有键迁移。", f.moved, f.moved_pct, f.ideal_pct),
            ],
        },
        TourWords {
            title: "虚拟节点要多少个？标准差随虚拟节点数的变化",
            steps: &[
                |f| format!("种子文章 003 的实验：{} 台服务器，键为 key-0、key-1 ……，每台服务器的虚拟节点数从 1 增加到 1,000，看各服务器键数的标准差 σ。实测曲线按 1/√v（虚线）下降，在 100～200 个虚拟节点附近变平：再多的虚拟节点只会多占内存，均衡性几乎不再提高。", f.servers),
                |f| format!("哈希环本身，每台服务器 {} 个虚拟节点：{} 个键，σ = {}，峰值 / 平均 {} —— 正是曲线平坦的那一端。", f.vnodes, f.keys, f.stddev, f.peak_mean),
            ],
        },
        TourWords {
            title: "种子文章 000 的 Java 示例，逐个数字对照",
            steps: &[
                |f| format!("种子文章 000 的 Java 示例：四台服务器，每台 200 个虚拟节点，MurmurHash64A，{} 个键。表中的数字与原文打印的完全一致：A {}、B {}、C {}、D {}。", f.keys, f.count("127.1.1.1#A"), f.count("127.2.2.2#B"), f.count("127.3.3.3#C"), f.count("127.4.4.4#D")),
                |f| format!("删除 A：它的 {} 个键迁往其余三台，数字仍与原文一致：B {}、C {}、D {}。", f.moved, f.count("127.2.2.2#B"), f.count("127.3.3.3#C"), f.count("127.4.4.4#D")),
                |f| format!("添加 E：它从 B、C、D 拿走 {} 个键。原文打印 B {}、C {}、D {}、E {}。", f.moved, f.count("127.2.2.2#B"), f.count("127.3.3.3#C"), f.count("127.4.4.4#D"), f.count("127.5.5.5#E")),
                |f| format!("添加 F，业务量加倍到 {} 个键：B {}、C {}、D {}、E {}、F {} —— 与原文最后一张表逐个相同。", f.keys, f.count("127.2.2.2#B"), f.count("127.3.3.3#C"), f.count("127.4.4.4#D"), f.count("127.5.5.5#E"), f.count("127.6.6.6#F")),
            ],
        },
        TourWords {
            title: "CARP：得分最好的胜出",
            steps: &[
                |f| format!("CARP（种子文章 004）：每台服务器用 MD5(服务器名 + 键) 给键打分，摘要最小者胜出。查找框下的表列出了 user:42 的全部 {} 个得分：{} 胜出。", f.servers, f.owner()),
                |f| format!("添加 redis5：只有 redis5 的得分胜过原胜者时键才迁移 —— {} 个键中的 {} 个（{}；理想 {}），全部迁往 {}。", f.keys, f.moved, f.moved_pct, f.ideal_pct, f.moved_to.join("、")),
            ],
        },
        TourWords {
            title: "Redis Cluster 的 16,384 个哈希槽",
            steps: &[
                |f| format!("Redis Cluster：键的槽号是 CRC16(key) mod 16384，每个主节点负责若干段槽。{{user1}}.following 带有哈希标签，所以只对 \"user1\" 求哈希：槽 {}，由 {} 负责。", f.slot.unwrap_or_default(), f.owner()),
                |f| format!("{{user1}}.followers 带有相同的标签，所以落在同一个槽 {}、同一个主节点 {} 上：多键命令能在一个节点上找到这两个键。", f.slot.unwrap_or_default(), f.owner()),
                |f| format!("添加第四个主节点：重新分片按整段迁移槽 —— 16,384 个槽中的四分之一 —— 迁往 node-7003，随之迁移 {} 个键（{}），全部迁往 {}。", f.moved, f.moved_pct, f.moved_to.join("、")),
            ],
        },
        TourWords {
            title: "数据不一致的缺陷",
            steps: &[
                |f| format!("种子文章 000 第 6 节。key2 哈希到 {} 的弧段上，所以写入 key2 = {} 存在 {} 上。", f.owner(), f.held("NODE2"), f.owner()),
                |f| format!("NODE2 宕机。它的键顺时针继续走，所以下一次写入 key2 = {} 存到了 {} 上。NODE2 上还留着旧值 {}。", f.held(f.owner()), f.owner(), f.held("NODE2")),
                |f| format!("NODE2 恢复，收回它的弧段：读 key2 又回到 {}，返回过期的值 {}，而 NODE3 上是 {}。两份数据不一致。", f.owner(), f.read_value(), f.held("NODE3")),
                |f| format!("实际系统的做法：节点恢复时，把这段时间写到它弧段上的数据迁回给它（或先让它的旧数据失效）。这里做了迁移：NODE2 上是 {}，读 key2 返回 {}。", f.held("NODE2"), f.read_value()),
            ],
        },
    ],
    stored_values: |key| format!("每台服务器为 {key} 存的值"),
    col_value: "存储的值",
    read_returns: |key, server, value| format!("读 {key} 会访问 {server}，返回 {value}。"),
    nothing_stored: "—",
    sweep_heading: "虚拟节点扫描",
    sweep_chart_label: "折线图：各服务器键数的标准差随每台服务器虚拟节点数的变化，虚线为 1/√v 趋势",
    sweep_x: "每台服务器的虚拟节点数",
    sweep_y: "各服务器键数的标准差 σ",
    sweep_measured: "实测 σ",
    sweep_trend: "σ(1)/√v",
    sweep_run: "运行扫描",
    sweep_setup: |servers, keys| format!("{servers} 台服务器，{keys} 个键，虚拟节点 1 → 1,000"),
};
