//! 简体中文：页面上的每一句话。结构与 `en.rs` 相同，由编译器检查。

use super::words::{decides, TourWords, Words};
use crate::facts::Facts;
use crate::problem::{Expected, Field, JsonKind, KeyNumber, NotModelled, Problem};
use crate::text::{Fixed, Shortest};

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
    weight_of: "{0} 的权重",
    fail: "使宕机",
    recover: "恢复",
    fail_server: "使宕机：{0}",
    recover_server: "恢复 {0}",

    fail_hint: "宕机：恢复之前，它的键转到别的服务器",
    recover_hint: "恢复：它取回自己的键",
    fail_pick: "宕机…",
    remove_server_named: "删除 {0}",
    new_server_name: "新服务器名称",
    add_server: "添加服务器",
    add_server_hint: "添加服务器（A）",
    intro_crush: "Ceph 按你的 CRUSH 图放置：对象名经 rjenkins 哈希落入 pg_num 个归置组之一，CRUSH 再用 straw2 抽签逐层下降——每份副本选一个不同的 {0}，再在其中选 OSD——所以一个组的 3 份副本绝不会落在同一个 {0}。内圈就是这张图：OSD 按 {0} 分组。与 osdmaptool 16.2 逐位一致。",
    add_host: "添加主机",
    add_host_hint: "添加一台与其他主机相同的 OSD 主机（A）",
    remove_host: "删除主机",
    remove_host_hint: "删除最后一台主机及其 OSD（R）",
    remove_server: "删除服务器",
    remove_server_hint: "删除最后一台服务器（R）",

    scenario: "场景",
    algorithm: "算法",
    hash: "哈希函数",
    virtual_nodes: "虚拟节点",
    probes: "每个键的探测次数",
    table_size: "查找表大小 M（质数）",
    balance: "均衡系数 c",
    vnodes_slider: "每台服务器的虚拟节点数（滑块）",
    keys: "键",
    key_count_label: "键的数量（最多 {0}）",
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
    add_short: "加入",
    remove_short: "移除",
    open_full_short: "完整页面 ↗",
    embed_idle: "加入或移除一台服务器，看哪些键迁移",
    moved_short: |moved, keys, ideal, between| {
        let ideal = ideal.map_or(String::new(), |ideal| format!(" — 理想 {ideal}"));
        let between = between.map_or(String::new(), |n| format!("；未受影响的服务器之间 {n} 个"));
        format!("{keys} 个中迁移 {moved} 个{ideal}{between}")
    },
    readout_heading: "迁移了什么",
    readout_idle: "加入、移除或让一台服务器宕机：这里会显示迁移了多少键、与理想值相比如何，以及从哪台服务器迁到哪台。",
    readout_moved: "{1} 个键中迁移了 {0} 个（{2}）",
    readout_ideal: "理想 {0} 个（{1}）",

    readout_between: "未受变更影响的服务器之间迁移：{0}",
    readout_groups: "重新映射的归置组：{1} 个中的 {0} 个 · 迁移的副本：{3} 份中的 {2} 份 · 主 OSD 改变：{4} 个",
    mark_moved: "在环上标出迁移的键",
    flows_caption: "键的迁移：从 → 到",
    flows_corner: "从 ╲ 到",
    flows_corner_transposed: "到 ╲ 从",
    flows_others: |n| format!("其他 {n} 台"),
    flow_words: "{0} → {1}：{2}",

    flow_between_hint: "在两台未受变更影响的服务器之间迁移",
    share_heading: "哈希环占比",
    share_chart_label: "每台服务器占哈希环比例的柱状图；虚线是均分时的比例",
    share_caption: "各服务器的哈希环占比",
    no_arcs: "这个算法没有环上的弧段：每个键单独放置，所以只看上面的键数。",

    ring_label: |algorithm, servers, keys| {
        format!("{algorithm}：{servers} 台服务器，{keys} 个键。滚轮或双指缩放，拖动平移。")
    },
    pic_ranges: "桶内侧的色带：键被抽取的区间（{}）。",
    pic_stack: "方格：锚点的 {} 个桶；标了数字的是移除栈，1 最先恢复（桶 {}）。其余的桶按前几百个键的查找经过它们的次数着色。",
    pic_replacements: "箭头：每个被移除的桶指向替代它的桶（{}）。",
    pic_grid: "方格：{} 个桶的数组；有颜色的在工作，其余的按前几百个键的查找抽中它们的次数着色。",
    pic_jumps: "桶内侧的曲线：前几百个键的查找所做的跳跃，越多的键这样跳，线越粗。",
    pic_capacity: "柱：每台服务器持有的键；横线是容量 {0} 个键 —— {1} 个键遇到已满的服务器，继续往下走。",
    pic_forwarded: "容量 {0} · 转发了 {1} 个键",
    pic_residues: "扇区：哈希 mod {0} 选出同号的扇区，第 i 个扇区就是第 i 台在线服务器（{1}）。",
    pic_scores: "表格：每台在线服务器给前几个键各打一个分，分数{1}者胜出（{0}）。",
    pic_score_caption: "每台服务器给键打分 · {0}者胜",
    pic_best: ["最高", "最低"],
    loupe: [
        "×{0}：顺时针第一个点拿到这个键",
        "×{0}：顺时针第一个点，按 64 位哈希比较",
        "×{0}：两侧较近的那个点拿到它",
        "×{0}：不大于键的最后一个点拿到它",
        "×{0}：两侧是同一台服务器的点，下一个点拿到它",
    ],
    pic_hints: [
        "图上，被跟踪的键的查找从一个桶跳到另一个桶（带编号的圆点），直到留下它的那个桶。",
        "图上，被跟踪的键的每次探测各自到达一台服务器的点；最近的那次（实线）胜出。",
        "图上，每台服务器给被跟踪的键打的分是一根柱条；胜者的柱条有标记。",
        "图上，被跟踪的键的哈希值对服务器数取模，指向该编号的服务器。",
        "图上框出被跟踪的键的哈希值选中的查找表格子；各服务器按自己的排列顺序填满了这些格子。",
        "图上每个格子是一个归置组，颜色是 CRUSH 分给它的 OSD 的颜色；框出被跟踪的键的名称哈希到的那个组。",
    ],
    pic_told: "{0}：{1}",
    zoom: "缩放",
    zoom_in: "放大（+）",
    zoom_out: "缩小（−）",
    zoom_reset: "还原缩放（0）",
    down_label: "{0} ✕ 宕机",
    centre_ring: |servers, vnodes, keys| format!("{servers} 台服务器 · {vnodes} 个虚拟节点 · {keys} 个键"),
    centre_summed: "每段弧：一台服务器的份额 · 放大可见其虚拟节点",
    centre_clustered: "键扎堆：这个哈希把相似的名字散得很不均匀",
    centre_slots: |masters, keys| format!("{masters} 个主节点 · 16,384 个槽 · {keys} 个键"),
    centre_other: |servers, keys| format!("{servers} 台服务器 · {keys} 个键"),
    hover_position: |grouped, p| format!("位置 {grouped}（0x{p:08x}）"),
    hover_slots: |last, name| format!("截至槽 {last} 的槽段 → {name}"),
    hover_cell: |cell, name| format!("查找表第 {cell} 格 → {name}"),
    hover_server: "服务器 {0}",

    hover_share: |share| format!("占哈希环的 {}%", Fixed(share * 100.0, 3)),
    hover_key: "键 {0}",
    hover_owner: "归属 {0}",

    nobody: "无（没有服务器在线）",

    // One entry per registered algorithm, by id: its title and a one-sentence intro.
    algorithms: |id| match id {
        "ring" => (
            "一致性哈希环",
            "每个键从自己的哈希值出发，顺时针找到第一个虚拟节点。添加、删除或让服务器宕机，看哪些弧段和键会迁移。",
        ),
        "modn" => (
            "哈希取模（mod N）",
            "每个键放到编号为 hash(key) mod N 的服务器上。添加或删除服务器会改变 N，几乎所有键都会迁移。",
        ),
        "rendezvous" => (
            "最高随机权重（HRW）",
            "每个键用 hash(服务器 + 键) 给所有服务器打分，归得分最高者；新服务器只拿走它现在胜出的那些键。",
        ),
        "carp" => (
            "CARP（MD5，取最小）",
            "CARP（思否上那篇 Redis 缓存文章的做法）：每个键归 MD5(服务器 + 键) 最小的服务器；新服务器大约拿走 1/(N+1) 的键。",
        ),
        "slots" => (
            "Redis Cluster 哈希槽",
            "Redis Cluster：键的槽号是 CRC16(key) mod 16384，每个主节点负责连续的槽段；添加主节点会把整段的槽迁给它。",
        ),
        "jump" => (
            "跳跃一致性哈希（2014）",
            "跳跃一致性哈希（Lamping 与 Veach）：几步随机跳跃就在按列表顺序排列的 N 台服务器中选出键的桶；加入第 N+1 台只拿走 1/(N+1) 的键，而且不占内存 —— 但只有最后一台能低成本地离开。",
        ),
        "multiprobe" => (
            "多探针一致性哈希（2015）",
            "多探针一致性哈希（Appleton 与 O'Reilly）：每台服务器只有一个点；每个键在环上探测 21 次，离服务器点最近的那次胜出 —— 一个点就有约 100 个虚拟节点的均衡度。",
        ),
        "maglev" => (
            "Maglev（2016）",
            "Maglev（Google）：每台服务器按自己的排列依次占据一个质数大小查找表中的格子；键的归属是 table[hash(key) mod M]。几乎完全均衡，迁移很少。",
        ),
        "jumpback" => (
            "JumpBack 哈希（2024）",
            "JumpBack（Ertl）：与跳跃哈希一样，键的桶只取决于它的哈希值和 N，新服务器拿走 1/(N+1) 的键 —— 但只用整数运算，从最高的桶区间往回走。",
        ),
        "binomial" => (
            "二项式哈希（2024）",
            "二项式哈希（Coluzzi 等）：桶是一棵二叉树的叶子；键由哈希值取一片叶子并在同一层内打乱，越过最后一个桶时重新哈希几次 —— 常数时间、不占内存，新服务器拿走 1/(N+1) 的键。",
        ),
        "bounded" => (
            "有界负载（2018）",
            "有界负载（Mirrokni、Thorup 与 Zadimoghaddam）：带虚拟节点的环，但每台服务器最多承载 ⌈c × 键数 / 服务器数⌉ 个键；键按顺序到达，顺时针越过已满的服务器。峰值被封顶 —— 代价是迁移的键更多。",
        ),
        "anchor" => (
            "锚点哈希（2020）",
            "锚点哈希 AnchorHash（Mendelson 等）：桶的数量固定为一个锚点集合；落在已删除桶上的键，在该桶删除时剩下的桶中重新哈希。任何服务器都能离开，只有它的键迁移；它回来时拿回同样的键。",
        ),
        "memento" => (
            "Memento 哈希（2023）",
            "MementoHash（Coluzzi 等）：跳跃哈希加上一小块记忆，记下被删除的桶和接替它的桶；落在已删除桶上的键重新哈希并沿接替关系前进。任何服务器都能离开，内存只随删除增长。",
        ),
        "dx" => (
            "Dx 哈希（2021）",
            "DxHash（Dong 与 Wang）：每个键用自己的哈希值作种子生成伪随机序列，依次抽取桶，直到抽中在线的桶。任何服务器都能离开，只有它的键迁移；一次查找约需 容量 ÷ 在线数 次抽取。",
        ),
        "flip" => (
            "翻转哈希（2024）",
            "翻转哈希 FlipHash（Masson 与 Lee）：键的桶来自哈希值的低位，最高位以下的位由第二个哈希翻转 —— 常数时间、不占内存，新服务器拿走 1/(N+1) 的键；与跳跃哈希一样，只有最后一台能低成本地离开。",
        ),
        "power" => (
            "幂次哈希（2023）",
            "幂次一致性哈希（Leu）：键先在不小于 N 的 2 的幂范围内选桶，越过最后一个桶的再由类似跳跃的随机游走决定 —— 期望常数时间、不占内存，新服务器拿走 1/(N+1) 的键；只有最后一台能低成本地离开。",
        ),
        "guava" => (
            "Guava 一致性哈希",
            "Guava 的 Hashing.consistentHash：谷歌 Guava 库中的跳跃一致性哈希（其随机数生成器用除法代替论文中的乘法）。桶与跳跃哈希完全相同：新增第 N+1 台服务器只取走 1/(N+1) 的键；只有最后一台服务器能低代价地离开。",
        ),
        "nginx" => (
            "nginx 一致性哈希",
            "nginx 的 hash $key consistent：每台服务器按配置中写法（主机:端口）的 CRC32 链生成 160 × 权重 个点，键取 crc32(键) 之后的第一个点。与 nginx 1.22 逐位一致；标记为停用的服务器让键继续走到下一个点。",
        ),
        "ketama" => (
            "ketama（加权）",
            "memcached 的 ketama（libmemcached 加权模式，与 twemproxy 相同）：每台服务器按权重占比取 MD5 摘要，每个摘要给出 4 个点，键取 MD5(键) 之后的第一个点。权重不等或新增服务器时，每台服务器的点数都会微调，键会在未受影响的服务器之间迁移。与 libmemcached 1.1 逐位一致。",
        ),
        "haproxy" => (
            "haproxy 一致性哈希",
            "HAProxy 的 hash-type consistent：服务器按声明顺序从 1 编号，权重为 w 的服务器有 16 × w 个点，位于编号 × 4096 + n 的整数哈希处；键先取 sdbm 哈希再做雪崩混合，取它前后两个点中较近的一个。在中间插入一台服务器会给后面的服务器重新编号，它们的键随之迁移。与 HAProxy 2.6 逐位一致。",
        ),
        "envoy-ring" => (
            "envoy 环形哈希",
            "Envoy 的环形哈希：环的总大小固定（默认至少 1024 个点），每台主机按权重占比得到若干个 XXH64(名称_i) 点，请求取 XXH64(值) 之后的第一个点。新增一台主机会缩小每台旧主机的份额，键因此在未受影响的主机之间迁移。与 Envoy 自带测试中的环和答案逐位一致。",
        ),
        "cassandra" => (
            "cassandra 令牌环",
            "Cassandra 的 Murmur3 分区器：分区键的令牌是 MurmurHash3 的前 64 位（尾部字节按 Java 的方式做符号扩展），归令牌不小于它的第一个节点所有。每个节点有 vnodes 个令牌：粘贴 nodetool ring 的输出即用集群自己的令牌；否则按节点名和随机种子生成（真实的分配器会选别的令牌），所以归属规则是精确的，生成的令牌是模型。",
        ),
        "envoy-maglev" => (
            "envoy 查找表",
            "Envoy 的 Maglev：主机按名称排序，各自用 XXH64 得出在质数大小查找表中的排列，按权重轮流填格（权重为最大权重一半的主机每两轮填一格）；请求取第 XXH64(值) mod M 格。与 Envoy 自带测试中的查找表逐位一致。",
        ),
        "groupcache" => (
            "groupcache 一致性哈希",
            "Go 语言 groupcache 的 consistenthash：每台服务器有 vnodes 个点，位于 crc32(序号 + 名称)（序号在名称之前），点重合时后加入的服务器胜出；键取 crc32(键) 之后的第一个点。与 groupcache 自带测试一致。",
        ),
        "ingress-nginx" => (
            "ingress-nginx 一致性哈希",
            "ingress-nginx 的 upstream-hash-by（OpenResty 的 lua-resty-balancer）：看起来像 nginx，其实不同——每台服务器 160 × 权重 个点的链从它名称的 CRC32 终值开始；键取不大于 crc32(键) 的最大点，比所有点都小时取第一个点，不绕回。与 lua-resty-balancer 自带测试一致。",
        ),
        "ceph" => (
            "Ceph CRUSH（straw2）",
            "Ceph：对象名经 rjenkins 哈希落入 pg_num 个归置组之一（ceph_stable_mod），CRUSH 的 straw2 再为每个组选 OSD：每个 OSD 抽签 ln(u) / 权重，最大者胜出；宕机（移出集群）的 OSD 被选中时重抽。只有变动 OSD 的组会迁移。与 osdmaptool 16.2 逐位一致。",
        ),
        "twemproxy" => (
            "twemproxy 一致性哈希",
            "twemproxy 的 distribution: ketama 配默认的 hash: fnv1a_64：与 libmemcached 相同的加权 MD5 环（配置给了名字时按名字），但键用截成 32 位的 FNV-1a 定位，所以 twemproxy 与按 MD5 定位的 ketama 客户端在多数键上不一致，相似的键（key-1、key-2…）也会挤在一起。与 nutcracker 0.5 逐位一致。",
        ),
        _ => ("", ""),
    },

    phases: ["正在计算键的哈希", "正在放置虚拟节点", "正在放置键", "正在填充查找表"],
    progress: "{0}：{1} / {2}…",
    added: "添加了 {0}",

    removed: "删除了 {0}",
    failed: "{0} 宕机",

    recovered: "{0} 已恢复",
    weight_set: |n, w| format!("{n} 的权重设为 {}", Shortest(w)),
    vnodes_set: |v| format!("虚拟节点数设为 {v}"),
    keys_set: "键设为 {0}",

    keys_list: "你的 {0} 个键（{1}）",
    algorithm_set: "切换到 {0}",

    hash_set: "哈希函数切换到 {0}",
    host_added: "新增主机 {0}，含 {1} 个 OSD",
    host_removed: "移除主机 {0} 及其 OSD",
    pg_num_set: "pg_num 设为 {0}",
    moved_of: "{0}：{2} 个键中迁移了 {1} 个（{3}",

    ideal: "；理想 {0}",
    moved_from: " —— 来自 {0}",

    moved_to: " —— 迁往 {0}",
    renumbered: "。跳跃类算法只能从末尾缩小：{0} 之后的服务器被重新编号，所以留下的服务器之间也有键迁移",

    list_separator: "、",
    close_paren: "）",

    explain_ring: |hash, key, pos, vnode, at, server| {
        format!("\"{key}\" 的 {hash} 哈希值 = 0x{pos:08x}；顺时针第一个虚拟节点是位于 0x{at:08x} 的 {vnode} → 服务器 {server}")
    },
    explain_nearest: |hash, key, pos, point, at, server| {
        format!("\"{key}\" 的 {hash} 哈希值 = 0x{pos:08x}；它前后两侧的点中较近的是位于 0x{at:08x} 的 {point} → 服务器 {server}")
    },
    explain_below: |hash, key, pos, point, at, server| {
        format!("\"{key}\" 的 {hash} 哈希值 = 0x{pos:08x}；不大于它的最大点（都比它大时取第一个点）是位于 0x{at:08x} 的 {point} → 服务器 {server}")
    },
    explain_nobody: |hash, key, pos| {
        format!("\"{key}\" 的 {hash} 哈希值 = 0x{pos:08x}，但没有服务器在线，所以它不归任何服务器")
    },
    explain_tag: "（哈希标签 \"{0}\"）",
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
    explain_jump: |digest, key, value, path, n, server| {
        format!("\"{key}\" 的 {digest} = 0x{value:016x}；在 {n} 个桶上跳跃，依次经过 {path}；最后一个就是它的桶 → {server}")
    },
    explain_bucket: |algo, digest, key, value, n, bucket, server| {
        format!("\"{key}\" 的 {digest} = 0x{value:016x}；{algo} 在 {n} 个桶中选中第 {bucket} 个桶 → {server}")
    },
    explain_probes: |k, key, probe, label, at, distance, server| {
        format!("\"{key}\" 探测 {k} 次；最近的一次位于 0x{probe:08x}，到达 {label} 位于 0x{at:08x} 的点（距离 {distance}） → {server}")
    },
    explain_pg: |key, hash, pg, pg_num, rejected, server, replicas| {
        let again = if rejected.is_empty() { String::new() } else { format!("（{rejected} 抽中但已移出集群，以 r + 1 重抽）") };
        let acting = if replicas.is_empty() { server.to_string() } else { format!("{server}, {replicas}") };
        format!("rjenkins(\"{key}\") = 0x{hash:08x}；ceph_stable_mod(·, {pg_num}) = 归置组 1.{pg:x}；CRUSH straw2（每个 OSD 抽签 ln(u) / 权重，最大者胜出{again}）给出副本数为 3 的存储池的活动集 [{acting}] → 主 OSD {server}")
    },
    explain_pg_hierarchy: |key, hash, pg, pg_num, kind, copies, server| {
        format!("rjenkins(\"{key}\") = 0x{hash:08x}；ceph_stable_mod(·, {pg_num}) = 归置组 1.{pg:x}；CRUSH 以 straw2 抽签沿映射的层级逐级向下，每个 {kind} 只放一份副本：副本数为 3 的存储池的活动集 [{copies}] → 主 OSD {server}")
    },
    explain_cell: |digest, key, cell, size, server| {
        format!("\"{key}\" 的 {digest} mod {size} = 查找表第 {cell} 格 → {server}")
    },
    explain_chain: |algo, digest, key, value, path, bucket, server| {
        format!("\"{key}\" 的 {digest} = 0x{value:016x}；{algo} 依次经过桶 {path}（✗ = 已删除）；第 {bucket} 个桶在线 → {server}")
    },
    explain_bounded: |hash, key, position, capacity, first, skipped, server| {
        if skipped.is_empty() {
            format!("{hash}(\"{key}\") = 0x{position:08x}；顺时针第一个点属于 {first}，它还有空位（容量 {capacity} 个键） → {server}")
        } else {
            format!("{hash}(\"{key}\") = 0x{position:08x}；顺时针越过了已满的 {skipped}（每台容量 {capacity} 个键） → {server}")
        }
    },
    explain_no_bucket: "\"{0}\" 没有桶：没有服务器在线",
    weighted_score: |score, hash, weight| format!("{}（哈希 0x{hash:08x}，权重 {}）", Fixed(score, 6), Shortest(weight)),

    link_not_loaded: |reasons| {
        format!("未能载入此链接的场景：{reasons}。现在显示默认场景；在你做出改动之前，地址栏仍保留你的链接。")
    },
    link_problem: "此链接有问题：{0}。",
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
        ("Q", "以二维码显示链接"),
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
    csv_moved: "迁移的键：{0} 个（CSV）",
    scenario_json: "场景（JSON）",
    open_scenario: "打开场景…",
    paste_config: "粘贴 nginx 的 upstream、HAProxy 的 backend、twemproxy 的池、Redis 的 CLUSTER NODES、nodetool ring 输出或 CRUSH 图（crushtool -d 的输出）",
    use_config: "使用这份配置",
    backups_left_out: "没有包含备用服务器 {0}（哈希只把键放在主服务器上；所有主服务器都不可用时才用备用服务器）。",
    paste_keys: "你自己的键，每行一个（最多 10,000 个）",
    use_keys: "使用这些键",
    exporting: "正在写出键：{0} / {1}…",
    reading: "正在读取：{0}%…",

    held_paste: "已粘贴 {0}（{1} 行）：为保持页面流畅，内容另存，不在框中显示。",
    forget_paste: "清除",
    bad_file: "未打开此文件：{0}。没有做任何改动。",
    reason_separator: "；",
    problem,

    compare_view: "比较算法",
    back_to_ring: "← 回到哈希环",
    compared: "算法比较",
    compare_change: "每个算法经历同样的变更",
    compare_changes: ["添加一台服务器", "删除第一台服务器", "让第一台服务器宕机"],
    compare_columns: [
        "算法",
        "迁移的键",
        "幸存服务器之间的迁移",
        "峰值 / 平均",
        "σ",
        "纳秒 / 次查找",
        "字节",
        "构建毫秒",
    ],
    comparing: |done, total| format!("正在比较：{total} 个算法中已完成 {done} 个…"),
    compare_verdict: |closest, pct, ideal, balanced, peak, inconsistent| {
        let left_out = if inconsistent == 0 {
            String::new()
        } else {
            format!("另有 {inconsistent} 个算法在未受变更影响的服务器之间迁移了键，不参与评选。")
        };
        format!("不在未受变更影响的服务器之间迁移键、且最接近理想值 {ideal} 的是：{closest}（{pct}）。其中最均衡：{balanced}（峰值 / 平均 {peak}）。{left_out}")
    },
    compare_chart_label: "散点图：每个算法迁移的键比例与峰值 / 平均负载；越靠左下越好",
    ideal_word: "理想",
    compare_narrow: "σ、每次查找耗时、字节与构建耗时：请在更宽的屏幕上查看",
    compare_legend: ["结论选出的算法", "参与评选", "不参与：在未受影响的服务器之间迁移键"],
    compare_axes: ["→ 迁移的键（%）", "↑ 峰值 / 平均"],

    tours: "导览",
    choose_tour: "选择一个导览…",
    step_of: |k, n| format!("第 {k} 步，共 {n} 步"),
    previous: "← 上一步",
    next: "下一步 →",
    next_tour: "下一个故事：{0} →",
    leave_tour: "退出导览",
    predict_add: "先预测：点“下一步”加入 {0} 后，{1} 个键中会有多少个迁移？",
    predict_remove: "先预测：点“下一步”移除 {0} 后，{1} 个键中会有多少个迁移？",

    predict_label: "你的猜测（键数）",
    reveal: "你猜 {0}。实际迁移 {1}（{2}），理想值为 {3}。",
    no_guess: "这次没有猜测：答案见结果卡片。",
    history_heading: "跟踪：每次变化后它的归属",
    history_pinned: "固定时在 {0}",
    history_moved: "{0} → 迁移到 {1}",

    history_stayed: "{0} → 仍在 {1}",
    print_handout: "打印讲义",
    print_hint: "走完本导览并打印讲义：每步一页，包含哈希环、讲解和迁移结果",
    qr_code: "二维码",
    qr_hint: "把本视图的链接显示为二维码，方便教室里的手机打开（Q）",
    qr_caption: "扫码打开完全相同的视图：",
    qr_too_long: "链接太长，无法生成二维码；请以文本方式分享。",
    qr_loopback: "只有本机能打开 {0}。给手机用：运行 make serve HOST=0.0.0.0，再打开它打印的地址。",
    link_too_long: "这个场景的链接将超过浏览器能打开的长度（2 MB）：请以场景文件分享（导出 → 场景（JSON））。",
    notes: "演讲者备注",
    notes_hint: "在第二个窗口打开本导览的备注（给你自己看）；它跟随你的步骤，它的按钮同时翻动两个窗口",
    notes_follow: "此窗口跟随本浏览器中正在演示的窗口；在这里按 ← / → 或按钮会同时翻动两个窗口。",
    notes_no_tour: "尚未打开导览。请在这里或演示窗口中选择一个。",
    notes_point: "请指向：{0}。",
    notes_next: "下一步：{0}。",

    notes_lookup: "查找 {0}",
    notes_new_scenario: "换一个新场景",
    notes_same: "画面不变，讲解继续",
    notes_end: "这是最后一个导览的最后一步。",
    focus_ring: "哈希环",
    focus_readout: "迁移结果卡片",
    focus_table: "每台服务器的键数表",
    focus_load: "负载图及其数值",
    focus_lookup: "查找框及其解释",
    focus_store: "存储的值",
    focus_sweep: "扫描曲线图",
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
                |f| format!("对象和缓存被哈希到同一个圆上，位置从 0 到 2³²−1。每个对象顺时针走，遇到的第一个缓存就是它的存储位置：{}。", f.listed("、")),
                |f| format!("移除 {}：只有它存的 {} 个对象迁移，全部迁往顺时针的下一个缓存 {}。其他对象都留在原处。", f.removed(), f.moved, f.moved_to.join("、")),
                |f| format!("添加 {}：它只拿走自己与逆时针方向上一个缓存之间的对象 —— {} 个中的 {} 个，全部来自 {}。其他对象都不动。", f.newest(), f.keys, f.moved, f.moved_from.join("、")),
            ],
        },
        TourWords {
            title: "虚拟节点让哈希环均衡",
            steps: &[
                |f| format!("文章《一致性哈希》的哈希环：四台服务器，每台一个点，像原文一样用 Java 的 String.hashCode 计算。{} 个用户键分布极不均衡：{} 有 {} 个（{}），{} 只有 {} 个。", f.keys, f.busiest.0, f.busiest.1, f.busiest_pct, f.quietest.0, f.quietest.1),
                |f| format!("换一个更好的哈希函数（xxh3）也解决不了：只有四个点时，点之间的弧段长短不一，所以 {} 有 {} 个键（{}）。各服务器键数的标准差是 {}。", f.busiest.0, f.busiest.1, f.busiest_pct, f.stddev),
                |f| format!("虚拟节点：每台服务器放到环上 {} 次，名为 192.168.0.1#0、192.168.0.1#1 ……，于是它拥有分散在环上的几段较短的弧。标准差现在是 {}。", f.vnodes, f.stddev),
                |f| format!("每台服务器 {} 个虚拟节点时（文章《Redis 一致性哈希算法》建议 100～200 个），弧段趋于均匀：标准差降到 {}，峰值 / 平均降到 {}。", f.vnodes, f.stddev, f.peak_mean),
                |f| format!("添加第五台服务器：它拿走 {} 个键（{}；理想 {}）—— 因为它的点分散在环上，所以从每台服务器各拿一点，旧服务器之间没有键迁移。", f.moved, f.moved_pct, f.ideal_pct),
            ],
        },
        TourWords {
            title: "虚拟节点要多少个？标准差随虚拟节点数的变化",
            steps: &[
                |f| format!("文章《Java 一致性哈希算法及测试标准差》的实验：{} 台服务器，键为 key-0、key-1 ……，每台服务器的虚拟节点数从 1 增加到 1,000，看各服务器键数的标准差 σ。实测曲线按 1/√v（虚线）下降，在 100～200 个虚拟节点附近变平：再多的虚拟节点只会多占内存，均衡性几乎不再提高。", f.servers),
                |f| format!("哈希环本身，每台服务器 {} 个虚拟节点：{} 个键，σ = {}，峰值 / 平均 {}。曲线已接近平坦，图却是偏的：原文所用的这个较弱的哈希函数把虚拟节点聚成一团，{} 占了环的 {}。哈希函数本身聚集时，再多的虚拟节点也无济于事。", f.vnodes, f.keys, f.stddev, f.peak_mean, f.top_share.0, f.top_share.1),
            ],
        },
        TourWords {
            title: "《Redis 一致性哈希算法》的 Java 示例，逐个数字对照",
            steps: &[
                |f| format!("文章《Redis 一致性哈希算法》的 Java 示例：四台服务器，每台 200 个虚拟节点，MurmurHash64A，{} 个键。表中的数字与原文打印的完全一致：{}。", f.keys, f.listed("、")),
                |f| format!("删除 {}：它的 {} 个键迁往其余三台，数字仍与原文一致：{}。", f.removed(), f.moved, f.listed("、")),
                |f| format!("添加 {}：它从 {} 拿走 {} 个键。原文打印 {}。", f.newest(), Facts::tags(&f.moved_from, "、"), f.moved, f.listed("、")),
                |f| format!("添加 {}，业务量加倍到 {} 个键：{} —— 与原文最后一张表逐个相同。", f.newest(), f.keys, f.listed("、")),
            ],
        },
        TourWords {
            title: "CARP：得分最好的胜出",
            steps: &[
                |f| format!("CARP（思否上那篇 Redis 缓存文章的做法）：每台服务器用 MD5(服务器名 + 键) 给键打分，摘要最小者胜出。查找框下的表列出了 user:42 的全部 {} 个得分：{} 胜出。", f.servers, f.owner()),
                |f| format!("添加 redis5：只有 redis5 的得分胜过原胜者时键才迁移 —— {} 个键中的 {} 个（{}；理想 {}），全部迁往 {}。", f.keys, f.moved, f.moved_pct, f.ideal_pct, f.moved_to.join("、")),
            ],
        },
        TourWords {
            title: "哈希槽：Redis Cluster 的 16,384 个，Ceph 的归置组",
            steps: &[
                |f| format!("Redis Cluster：键的槽号是 CRC16(key) mod 16384，每个主节点负责若干段槽。{{user1}}.following 带有哈希标签，所以只对 \"user1\" 求哈希：槽 {}，由 {} 负责。", f.slot.unwrap_or_default(), f.owner()),
                |f| format!("{{user1}}.followers 带有相同的标签，所以落在同一个槽 {}、同一个主节点 {} 上：多键命令能在一个节点上找到这两个键。", f.slot.unwrap_or_default(), f.owner()),
                |f| format!("添加第四个主节点：重新分片按整段迁移槽 —— 16,384 个槽中的四分之一 —— 迁往 node-7003，随之迁移 {} 个键（{}），全部迁往 {}。", f.moved, f.moved_pct, f.moved_to.join("、")),
                |f| format!("Ceph 同样分两级，但第二级是算出来的：对象名经 rjenkins 哈希落入存储池 256 个归置组（图中的格子）之一，CRUSH 的 straw2 再按各 OSD 及其权重为每个组抽签选出 OSD——没有要保存、要手工重新分片的槽表。添加 osd.3：它赢得约四分之一的组，{} 个键（{}；理想 {}）迁移，全部迁往 {}。", f.moved, f.moved_pct, f.ideal_pct, f.moved_to.join("、")),
                |f| format!("真实的 Ceph 集群有主机。这张 CRUSH 图（内圈）有 3 台主机、每台 4 个 OSD，规则要求一个组的每份副本放在不同的主机上，所以坏掉一台主机最多丢一份副本。obj-1 所在组的 3 份副本在 {}：三条线，三台主机。", f.copies_listed("、")),
                |f| { let g = f.groups.clone().unwrap_or_default(); format!("加入一台主机 node-d（4 个 OSD）：CRUSH 重新映射了 {1} 个归置组中的 {0} 个，迁移了 {3} 份副本中的 {2} 份，但只有 {4} 个组的主 OSD 变了——像上面的键数那样只数主副本，会低估真正要搬的数据。obj-1 的副本现在在 {5}。", g[0], g[1], g[2], g[3], g[4], f.copies_listed("、")) },
            ],
        },
        TourWords {
            title: "数据不一致的缺陷",
            steps: &[
                |f| format!("文章《Redis 一致性哈希算法》第 6 节：key2 哈希到 {} 的弧段上，所以写入 key2 = {} 存在 {} 上。", f.owner(), f.held("NODE2"), f.owner()),
                |f| format!("NODE2 宕机。它的键顺时针继续走，所以下一次写入 key2 = {} 存到了 {} 上。NODE2 上还留着旧值 {}。", f.held(f.owner()), f.owner(), f.held("NODE2")),
                |f| format!("NODE2 恢复，收回它的弧段：读 key2 又回到 {}，返回过期的值 {}，而 NODE3 上是 {}。两份数据不一致。", f.owner(), f.read_value(), f.held("NODE3")),
                |f| format!("实际系统的做法：节点恢复时，把这段时间写到它弧段上的数据迁回给它（或先让它的旧数据失效）。这里做了迁移：NODE2 上是 {}，读 key2 返回 {}。", f.held("NODE2"), f.read_value()),
            ],
        },
        TourWords {
            title: "为什么键会在我没动过的服务器之间迁移？",
            steps: &[
                |f| format!("nginx，四台上游服务器，{} 个键。添加 {}：{} 个键迁移（{}），全部迁往新服务器。在这次变更没有触及的服务器之间：{}。", f.keys, f.newest(), f.moved, f.moved_pct, f.between),
                |f| format!("Envoy 的环形哈希，同样的服务器和键，添加同一台服务器：{} 个键迁移（{}），其中 {} 个在没人动过的主机之间迁移。Envoy 的环总大小固定，新主机的点来自每台旧主机的份额。", f.moved, f.moved_pct, f.between),
                |f| format!("memcached 的 ketama，其中一台权重为 2：添加 {} 后，每台服务器的点数都按它所占的权重重新计算——迁移的 {} 个键中有 {} 个在未受影响的服务器之间迁移。", f.newest(), f.moved, f.between),
                |f| format!("HAProxy 按配置中声明的顺序给服务器编号。删除第一台：其余服务器的编号都减一，它们的点随之移动，迁移的 {} 个键中有 {} 个在留下的服务器之间迁移。", f.moved, f.between),
            ],
        },
        TourWords {
            title: "每种算法如何决定",
            steps: &decides(|f| format!("同一个键、七条规则、同样五台服务器：每幅图画出各自规则的决定过程。{}", f.picture)),
        },
    ],
    stored_values: "每台服务器为 {0} 存的值",
    col_value: "存储的值",
    read_returns: "读 {0} 会访问 {1}，返回 {2}。",
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

/// Each problem in Chinese (an exhaustive `match`: a new problem cannot ship without it).
/// The problems' messages in Chinese, by [`Problem::values`]' index.
const PROBLEMS: [&str; 98] = [
    "服务器名称不能为空",
    "服务器名称 {0} 超过 {1} 个字符",
    "服务器名称 {0} 含有不可见字符或控制字符 {1}；请只用可见字符",
    "服务器名称 {0} 含有不允许的 '{1}'（',' 用来分隔服务器，'*' 用来给出权重）",
    "服务器名称 {0} 含有 U+FFFD，说明原文不是有效的 UTF-8；请检查文件或链接的编码",
    "服务器名称 {0} 含有组合附加符号 {1}；请把每个带附加符号的字母写成一个字符，让看起来相同的名称就是同一个名称",
    "服务器名称 {0} 出现了两次；名称必须唯一",
    "已有名为 {0} 的服务器；名称必须唯一",
    "没有服务器 {0}；现有服务器：{1}",
    "没有服务器 {0}；列表为空",
    "服务器 {0} 已经宕机",
    "服务器 {0} 没有宕机",
    "没有可删除的服务器",
    "没有可让其宕机的服务器",
    "已有 {0} 台服务器，达到上限",
    "超过了 {0} 台服务器的上限",
    "节点：{0} 台服务器超过了页面的上限 {1}；命令行最多可用 {2} 台",
    "节点项 {0} 必须形如 名称{i}:A..B，例如 节点-{i}:0..1000",
    "节点项 {0} 的范围为空（不含终点，终点必须更大）",
    "down：{0} 不是现有的服务器",
    "权重 {0} 不是数字；请用大于 0 且不超过 {1} 的数",
    "权重 {0} 必须大于 0 且不超过 {1}",
    "{0} 的权重必须是整数（weight=1、2……）：服务器 {1} 的权重为 {2}",
    "虚拟节点数 {0} 必须是 1 到 {1} 的整数",
    "虚拟节点数 {0} 不是整数；请用 1 到 {1}",
    "随机种子 {0} 必须是 0 到 {1} 的整数",
    "探测次数 {0} 必须是 1 到 {1} 的整数",
    "查找表大小 {0} 必须是不超过 {1} 的质数，例如 251 或 65537",
    "均衡系数 c {0} 必须是 1 到 {1} 之间的数，例如 1.25",
    "键的数量 {0} 必须在 1 到 {1} 之间",
    "键的数量 {0} 不是整数；请用 1 到 {1}",
    "键名模板 {0} 需要在编号处写 {i}，例如 user:{i}；留空则使用纯数字",
    "freeze {0} 必须是 0 到 {1} 之间的毫秒数",
    "{0} {1} 必须是 1 或 0",
    "未知算法 {0}；可选 {1}",
    "未知哈希函数 {0}；可选 {1}",
    "未知参数 {0}；已知参数：{1}",
    "{0} 出现了多次；每个参数只能给一次",
    "导览 {0} 不存在，可选 {1}",
    "导览 {1} 的步骤 {0} 必须是 1 到 {2} 或 last",
    "step 需要配合 tour 使用，例如 tour=modn&step=2",
    "{0} 被忽略：{1} 优先（notes=1 优先于 embed=1，embed=1 优先于 present=1，tour 优先于 view=compare）",
    "lang {0} 必须是 en 或 zh-CN",
    "theme {0} 必须是 light 或 dark",
    "view {0} 必须是 ring 或 compare",
    "键：键集合为空",
    "键：{0} 个键超过了上限 {1}",
    "键：{0} 个键超过了页面上限 {1}；命令行最多可处理 10,000,000 个",
    "键：列表中每一项须为 1..={0} 个字符，实际为 {1}",
    "键：列表项不能包含不可见字符或控制字符 {0}",
    "键：应为 A..B、模板:A..B（模板含 {i}）、list:k1,k2,... 或 random:数量，实际为 {0}",
    "键：范围 {0}..{1} 为空（不含终点，终点必须更大）",
    "键：名称模板 {0} 必须包含 {i}（编号的位置），例如 key-{i}:0..1000",
    "键：名称模板不能包含不可见字符或控制字符 {0}",
    "键：模板超过 {0} 个字符",
    "恒等哈希需要 0..={0} 范围内的十进制整数键，实际为 {1}",
    "标签 {0} 必须包含 {node}（多于一个虚拟节点时还须包含 {i}），例如 {node}#{i}",
    "标签超过 {0} 个字符",
    "标签不能包含不可见字符或控制字符 {0}",
    "标签 {0} 没有 {i}，一台服务器的所有虚拟节点会落在同一点上；请加上 {i} 或使用 vnodes=1",
    "权重为 {1} 的服务器 {0} 得不到任何虚拟节点（{2} × 权重四舍五入为 0）；请把权重提高到至少 {3}，或增加虚拟节点数",
    "虚拟节点共 {0} 个，超过了上限 {1}；请减少虚拟节点数或权重",
    "最高随机权重要对“服务器+键”字符串求哈希，恒等哈希做不到；请换一个哈希函数",
    "Maglev 的查找表只有 {0} 格，容纳不下 {1} 台服务器；请用更大的质数",
    "虚拟节点扫描需要一致性哈希环（algo ring）",
    "步骤 {0} 应形如 add:名称、remove:名称、fail:名称、recover:名称、weight:名称*权重、vnodes:数量、keys:键集合、algo:算法 或 hash:哈希函数",
    "步骤 {0} 应形如 weight:名称*权重",
    "{1} 中的步骤 {0} 未知；可用 add、remove、fail、recover、weight、vnodes、keys、algo 或 hash",
    "它不是 hashring-lab 场景文件（\"format\" 必须是 \"{0}\"）",
    "\"version\" 必须是 1",
    "未知字段 {0}；场景文件的字段有 {1}",
    "\"{0}\" 必须是整数或字符串",
    "它不是有效的 JSON",
    "它不是 JSON 对象",
    "无法读取",
    "文件大小为 {0}；场景文件最大为 {1}",
    "另有 {0} 个问题",
    "slotmap：应为 0 到 16383 的槽范围 N 或 A-B，用 + 连接，每台服务器一项：{0}",
    "{0} 只用于 algo={1}",
    "{0} 给出了 {1} 台服务器的项，nodes 列出的是 {2} 台",
    "槽 {0} 同时属于 {1} 和 {2}",
    "槽 {0} 不属于任何主节点（集群在这个槽上不可用）",
    "槽 {0}–{1} 不属于任何主节点（集群在这些槽上不可用）",
    "tokens：应为用 + 连接的 64 位有符号整数：{0}",
    "令牌 {0} 在 {1} 下列出了两次",
    "令牌 {0} 同时属于 {1} 和 {2}",
    "tokens：总数超过上限 {0}",
    "{0}：请用命令行读取（hashring-lab simulate --config 文件），页面不读取",
    "页面读不了这份配置：可读 nginx 的 upstream 块、HAProxy 的 backend 段、twemproxy 的池、CLUSTER NODES、nodetool ring 输出或 CRUSH 图（crushtool -d 的输出）",
    "{0} 配置中没有参与哈希的服务器",
    "键：链接中的键不能含逗号，实际为 {0}",
    "程序内部错误（{0}）",
    "Maglev 查找表大小 {0} 必须是 1 到 {1} 之间的整数（质数，例如 251 或 65537）",
    "pg_num {0} 必须是 1 到 {1} 之间的整数（Ceph 存储池的归置组数；Ceph 默认 32）",
    "crush：{0} 不是 CRUSH 布局的组成部分（应为调优参数段、规则段，或每个桶一段“类型:名称:编号(成员,…)”）",
    "crush：桶 {1} 包含 {0}，它既不是 OSD（osd.N），也不是在它之前定义的桶",
    "crush：服务器 {0} 不在 CRUSH 层级的任何桶中（Ceph 的服务器是 OSD，即 osd.N，须放在某台主机下）",
    "CRUSH 图：{0}",
];

fn problem(p: &Problem) -> String {
    use Problem as P;
    if let Some(message) = p.filled(&PROBLEMS) {
        return message;
    }
    match p {
        P::KeyNotNumber { which, given } => {
            let which = match which {
                KeyNumber::RangeStart => "范围起点",
                KeyNumber::RangeEnd => "范围终点",
                KeyNumber::Count => "数量",
            };
            format!("键：{which} {given} 不是整数")
        }
        P::MustBeString { field, kind } => {
            let kind = match kind {
                JsonKind::Object => "对象",
                JsonKind::List => "列表",
                JsonKind::Boolean => "布尔值",
                JsonKind::Null => "空值",
                JsonKind::Other => "其他值",
            };
            format!("\"{field}\" 必须是字符串，而不是{kind}")
        }
        P::ConfigSyntax {
            line,
            column,
            expected,
            found: Some(found),
        } => format!(
            "配置第 {line} 行第 {column} 列：应为{}，实际为 {found}",
            expected_zh(*expected)
        ),
        P::ConfigSyntax {
            expected,
            found: None,
            ..
        } => format!("配置在应出现{}的地方结束了", expected_zh(*expected)),
        P::ConfigNotConsistent { system, why } => {
            format!("{system} 配置：{}", not_modelled_zh(*why))
        }
        P::In {
            field,
            problem: inner,
        } => {
            let field = match field {
                Field::Nodes => "nodes",
                Field::Down => "down",
                Field::Label => "虚拟节点标签",
                Field::Keys => "键",
            };
            format!("{field}：{}", problem(inner))
        }
        P::OnLine {
            line,
            problem: inner,
        } => format!("第 {line} 行：{}", problem(inner)),
        // Every other problem is in the table.
        _ => String::new(),
    }
}

/// What a config reader expected, in Chinese.
fn expected_zh(e: Expected) -> &'static str {
    match e {
        Expected::UpstreamName => " upstream 的名称",
        Expected::LineWords => "行尾：HAProxy 一行最多读取 64 个词",
        Expected::TemplateCount => "服务器数量，N 或 A-B，从 1 开始（最多 10,000 个）",
        Expected::Directive => "指令（`server`、`hash` 等）或块的结束 }",
        Expected::OpenBrace => " {",
        Expected::CloseBrace => " }",
        Expected::Semicolon => " ;",
        Expected::Address => "地址",
        Expected::NginxWeight => " weight=N（从 1 起的整数）",
        Expected::ServerName => "服务器名称",
        Expected::ServerAddress => "服务器地址",
        Expected::HaproxyWeight => " 1 到 256 的权重",
        Expected::PoolServer => " host:port:weight [name] 或 /path:weight [name]",
        Expected::PoolWeight => "从 1 起的整数权重",
        Expected::PoolPort => " 1 到 65535 的端口",
        Expected::PoolName => "不以 :11211 结尾的名称",
        Expected::PlainName => "不含 , * { } 的名称（它们是服务器列表自己的符号）",
        Expected::NodesLine => "至少 8 个字段（节点 id、地址、标志、主节点 id、最近一次探测发送时间、最近一次回应接收时间、配置纪元、连接状态）",
        Expected::NodesAddress => "不含 , * { } 的地址 ip:port@cport",
        Expected::MovingSlot => "迁移中的槽 [N->-ID] 或 [N-<-ID]",
        Expected::SlotRange => " 0 到 16383 的槽 N 或 A-B",
        Expected::ShardStart => " \"slots\"（分片的开头）",
        Expected::ShardSlots => " 0 到 16383 的槽起止对，然后是 \"nodes\"",
        Expected::ShardValue => "每个字段名后的值",
        Expected::ShardNode => " \"id\"（节点的开头）",
        Expected::ShardMaster => "持有槽的分片中 role 为 \"master\" 的节点",
        Expected::ShardAddress => "主节点的 \"ip\" 和 \"port\"（不含 , * { }）",
        Expected::RingStatus => "状态（Status）Up、Down 或 ?",
        Expected::RingState => "状态（State）Normal、Leaving、Joining 或 Moving",
        Expected::RingToken => "令牌（64 位有符号整数）",
        Expected::RingRow => "一行：Address Rack Status State Load Owns Token",
    }
}

/// Why a config is not the consistent hashing modelled here, in Chinese.
fn not_modelled_zh(why: NotModelled) -> &'static str {
    match why {
        NotModelled::NginxPlainHash => {
            "没有 `consistent` 的 `hash KEY;` 是 nginx 按权重取模，不是一致性哈希"
        }
        NotModelled::NginxRoundRobin => "没有 `hash KEY consistent;`：这个 upstream 按轮询分配",
        NotModelled::HaproxyServerId => "服务器的 `id` 会固定它的编号；这里按声明顺序编号",
        NotModelled::HaproxyNotConsistent => "这个 backend（及其 `defaults`）没有 `hash-type consistent`",
        NotModelled::HaproxyHashFunction => {
            "只模拟了不指定函数的 `hash-type consistent`（sdbm 加 avalanche），没有模拟 crc32、djb2、wt6 或单独的 sdbm"
        }
        NotModelled::HaproxyNotHashing => {
            "它的 `balance`（未设置时为 roundrobin）不对键求哈希：只有 source、uri、url_param、hdr、rdp-cookie 和 hash 会"
        }
        NotModelled::HaproxyBalanceFactor => "没有为 HAProxy 模拟 `hash-balance-factor`（有界负载）",
        NotModelled::HaproxyHashKey => "只模拟了 `hash-key id`（默认），没有模拟 addr 或 addr-port",
        NotModelled::HaproxyBackupFirst => {
            "排在活动服务器之前的备用服务器会占用编号，活动服务器的点依赖这个编号；请把备用服务器放在最后"
        }
        NotModelled::HaproxyTemplateName => {
            "使用 DNS 名称的 `server-template`：哪些服务器在线取决于解析结果（请给出 IP 地址）"
        }
        NotModelled::TwemproxyHash => "只模拟了 `hash: fnv1a_64`（默认）和 `hash: md5`",
        NotModelled::TwemproxyDistribution => {
            "只有 `distribution: ketama` 是一致性哈希（modula 和 random 不是）"
        }
        NotModelled::TwemproxyHashTag => "`hash_tag` 只对键的一部分求哈希，这里没有模拟",
    }
}
