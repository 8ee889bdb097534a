//! Every interface string, in English, Simplified Chinese and Brazilian Portuguese.
//!
//! Messages that Kubernetes itself prints (FailedScheduling events, validation errors,
//! kubectl output, admission errors) are not translated: they are shown exactly as a
//! cluster prints them, in English.

use yew::prelude::*;

/// An interface language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    ZhCn,
    /// Brazilian Portuguese.
    PtBr,
}

impl Lang {
    /// Every language, in menu order.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::ZhCn, Lang::PtBr];

    /// BCP 47 tag, for `<html lang>` and storage.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
            Lang::PtBr => "pt-BR",
        }
    }

    /// The language's own name, for the menu.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "简体中文",
            Lang::PtBr => "Português (Brasil)",
        }
    }

    /// Picks a language from a BCP 47 tag such as `navigator.language`: Chinese
    /// variants give Simplified Chinese, Portuguese ones Brazilian Portuguese, anything
    /// else English.
    pub fn from_tag(tag: &str) -> Lang {
        let t = tag.trim().to_ascii_lowercase();
        if t == "zh" || t.starts_with("zh-") || t.starts_with("zh_") {
            Lang::ZhCn
        } else if t == "pt" || t.starts_with("pt-") || t.starts_with("pt_") {
            Lang::PtBr
        } else {
            Lang::En
        }
    }
}

macro_rules! strings {
    ($($key:ident => $en:literal, $zh:literal, $pt:literal;)*) => {
        /// A key of the string table.
        #[allow(missing_docs)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum K { $($key),* }

        impl K {
            /// Every key (for completeness tests).
            pub const ALL: &'static [K] = &[$(K::$key),*];
        }

        /// The string for `key` in `lang`.
        pub fn tr(lang: Lang, key: K) -> &'static str {
            match lang {
                Lang::En => match key { $(K::$key => $en),* },
                Lang::ZhCn => match key { $(K::$key => $zh),* },
                Lang::PtBr => match key { $(K::$key => $pt),* },
            }
        }
    };
}

strings! {
    AppTitle => "Taintlab playground", "Taintlab 演练场", "Playground do Taintlab";
    AppTagline => "Paste nodes and pods: see where each pod can run, why, and when it would be evicted — exactly as Kubernetes decides.",
        "粘贴节点和 Pod：查看每个 Pod 能在哪里运行、原因，以及何时会被驱逐——与 Kubernetes 的判定完全一致。",
        "Cole nós e pods: veja onde cada pod pode rodar, por quê e quando seria despejado — exatamente como o Kubernetes decide.";
    SkipToResults => "Skip to results", "跳到结果", "Pular para os resultados";
    Examples => "Examples", "示例", "Exemplos";
    Share => "Copy share link", "复制分享链接", "Copiar link de compartilhamento";
    ShareCopied => "Share link copied to the clipboard and placed in the address bar.", "分享链接已复制到剪贴板，并已放入地址栏。", "Link copiado para a área de transferência e colocado na barra de endereço.";
    ShareInAddressBar => "Share link placed in the address bar (the clipboard is not available).", "分享链接已放入地址栏（剪贴板不可用）。", "Link colocado na barra de endereço (a área de transferência não está disponível).";
    ShareTooLarge => "This state is too large for a link ({0} characters, limit {1}). Use Export instead.", "当前状态太大，无法放入链接（{0} 个字符，上限 {1}）。请改用导出。", "Este estado é grande demais para um link ({0} caracteres, limite {1}). Use Exportar.";
    ExportYaml => "Export YAML", "导出 YAML", "Exportar YAML";
    ImportYaml => "Import YAML", "导入 YAML", "Importar YAML";
    Imported => "State imported.", "状态已导入。", "Estado importado.";
    Language => "Language", "语言", "Idioma";
    ThemeLabel => "Theme", "主题", "Tema";
    ThemeSystem => "System", "跟随系统", "Sistema";
    ThemeLight => "Light", "浅色", "Claro";
    ThemeDark => "Dark", "深色", "Escuro";
    Settings => "Cluster settings", "集群设置", "Configurações do cluster";
    Version => "Kubernetes version", "Kubernetes 版本", "Versão do Kubernetes";
    Gate => "TaintTolerationComparisonOperators gate (Lt/Gt, 1.35+)", "TaintTolerationComparisonOperators 特性门控（Lt/Gt，1.35+）", "Feature gate TaintTolerationComparisonOperators (Lt/Gt, 1.35+)";
    GateNeeds135 => "The gate exists from 1.35 on; on this release Lt and Gt never tolerate.", "该门控从 1.35 起才存在；在此版本中 Lt 和 Gt 永远不会容忍。", "O feature gate existe a partir da 1.35; nesta versão Lt e Gt nunca toleram.";
    AdmissionTitle => "Admission (as the API server does on CREATE)", "准入（与 API 服务器在 CREATE 时一致）", "Admissão (como o API server faz no CREATE)";
    AdmissionEnabled => "Run admission on the pasted pods", "对粘贴的 Pod 运行准入", "Executar a admissão nos pods colados";
    AdmissionHint => "Pods copied from a cluster already went through admission; running it again adds nothing already covered.", "从集群复制的 Pod 已经过准入；再次运行不会重复添加已覆盖的容忍。", "Pods copiados de um cluster já passaram pela admissão; rodar de novo não adiciona o que já está coberto.";
    DefaultTolerationSeconds => "DefaultTolerationSeconds", "DefaultTolerationSeconds", "DefaultTolerationSeconds";
    NotReadySeconds => "not-ready seconds", "not-ready 秒数", "segundos de not-ready";
    UnreachableSeconds => "unreachable seconds", "unreachable 秒数", "segundos de unreachable";
    PodTolerationRestriction => "PodTolerationRestriction", "PodTolerationRestriction", "PodTolerationRestriction";
    ClusterDefault => "Configuration default tolerations", "配置中的默认容忍", "Tolerâncias padrão da configuração";
    ClusterWhitelist => "Configuration whitelist", "配置中的白名单", "Lista de permissões da configuração";
    NamespaceDefault => "Namespace annotation defaultTolerations (JSON)", "命名空间注解 defaultTolerations（JSON）", "Anotação do namespace defaultTolerations (JSON)";
    NamespaceWhitelist => "Namespace annotation tolerationsWhitelist (JSON)", "命名空间注解 tolerationsWhitelist（JSON）", "Anotação do namespace tolerationsWhitelist (JSON)";
    AnnotationPresent => "present", "存在", "presente";
    ExtendedResourceToleration => "ExtendedResourceToleration", "ExtendedResourceToleration", "ExtendedResourceToleration";
    DaemonSetToggle => "These pods belong to a DaemonSet (DaemonSet workloads always do)", "这些 Pod 属于 DaemonSet（DaemonSet 工作负载总是如此）", "Estes pods pertencem a um DaemonSet (cargas DaemonSet sempre pertencem)";
    NodesPane => "Nodes", "节点", "Nós";
    PodsPane => "Pods", "Pod", "Pods";
    NodesHint => "kubectl get nodes -o yaml/json, kubectl taint lines, describe node output, taint lists, FailedScheduling events",
        "kubectl get nodes -o yaml/json、kubectl taint 命令、describe node 输出、污点列表、FailedScheduling 事件",
        "kubectl get nodes -o yaml/json, linhas kubectl taint, saída de describe node, listas de taints, eventos FailedScheduling";
    PodsHint => "Pods, Deployments and other workloads (YAML/JSON, lists), describe pod output, toleration lists, FailedScheduling events",
        "Pod、Deployment 等工作负载（YAML/JSON、列表）、describe pod 输出、容忍列表、FailedScheduling 事件",
        "Pods, Deployments e outras cargas (YAML/JSON, listas), saída de describe pod, listas de tolerâncias, eventos FailedScheduling";
    UploadFile => "Open file…", "打开文件…", "Abrir arquivo…";
    DropHere => "or drop a file on the text box", "或把文件拖放到文本框", "ou solte um arquivo na caixa de texto";
    Clear => "Clear", "清空", "Limpar";
    Read => "Read: {0}", "已读取：{0}", "Lido: {0}";
    CountNodes => "{0} node(s)", "{0} 个节点", "{0} nó(s)";
    CountPods => "{0} pod(s)", "{0} 个 Pod", "{0} pod(s)";
    CountCommands => "{0} kubectl taint command(s)", "{0} 条 kubectl taint 命令", "{0} comando(s) kubectl taint";
    CountEvents => "{0} event(s)", "{0} 个事件", "{0} evento(s)";
    NothingRead => "nothing yet", "尚无内容", "nada ainda";
    ErrorsCount => "{0} error(s), {1} warning(s)", "{0} 个错误，{1} 个警告", "{0} erro(s), {1} aviso(s)";
    LineCol => "Line {0}, column {1}", "第 {0} 行，第 {1} 列", "Linha {0}, coluna {1}";
    LineOnly => "Line {0}", "第 {0} 行", "Linha {0}";
    WholeInput => "Whole input", "整个输入", "Entrada inteira";
    ErrorWord => "Error", "错误", "Erro";
    WarningWord => "Warning", "警告", "Aviso";
    Parsing => "Reading {0} in the background…", "正在后台读取 {0}…", "Lendo {0} em segundo plano…";
    ParsedIn => "Read {0} in {1} ms.", "已在 {1} 毫秒内读取 {0}。", "{0} lido em {1} ms.";
    BigText => "{0} in this pane: too large to show in the text box without slowing the page. It is read in full.", "此窗格中有 {0}：太大，无法在文本框中显示而不拖慢页面。内容会被完整读取。", "{0} neste painel: grande demais para mostrar na caixa de texto sem deixar a página lenta. É lido por inteiro.";
    ShowText => "Show and edit the text", "显示并编辑文本", "Mostrar e editar o texto";
    KubectlOutput => "kubectl output", "kubectl 输出", "Saída do kubectl";
    CreatedNodes => "Created because no such node was pasted: {0}", "因未粘贴同名节点而创建：{0}", "Criado porque nenhum nó com esse nome foi colado: {0}";
    AddTaint => "Add a taint", "添加污点", "Adicionar um taint";
    AddToleration => "Add a toleration", "添加容忍", "Adicionar uma tolerância";
    FieldNode => "Node", "节点", "Nó";
    FieldPod => "Pod name", "Pod 名称", "Nome do pod";
    FieldKey => "Key", "键", "Chave";
    FieldValue => "Value", "值", "Valor";
    FieldEffect => "Effect", "效果", "Efeito";
    FieldOperator => "Operator", "运算符", "Operador";
    FieldSeconds => "tolerationSeconds", "tolerationSeconds", "tolerationSeconds";
    AnyEffect => "(any effect)", "（任意效果）", "(qualquer efeito)";
    AddButton => "Add", "添加", "Adicionar";
    KeyRequired => "A key is required (only Exists may leave it empty).", "必须填写键（只有 Exists 可以留空）。", "A chave é obrigatória (só Exists pode deixá-la vazia).";
    TabResults => "Matrix", "矩阵", "Matriz";
    TabTimeline => "What if", "假如", "E se";
    TabKubewarden => "Kubewarden policy", "Kubewarden 策略", "Política Kubewarden";
    ResultsTitle => "Where can each pod run?", "每个 Pod 能在哪里运行？", "Onde cada pod pode rodar?";
    EmptyResults => "Paste nodes and pods, or pick an example, to see the matrix.", "粘贴节点和 Pod，或选择一个示例，即可看到矩阵。", "Cole nós e pods, ou escolha um exemplo, para ver a matriz.";
    NoNodes => "No nodes yet.", "还没有节点。", "Nenhum nó ainda.";
    NoPods => "No pods yet.", "还没有 Pod。", "Nenhum pod ainda.";
    MatrixCaption => "Pods (rows) × nodes (columns). Use the arrow keys to move, Enter to explain a cell.", "Pod（行）× 节点（列）。用方向键移动，按 Enter 查看单元格的解释。", "Pods (linhas) × nós (colunas). Use as setas para mover e Enter para explicar uma célula.";
    GroupedNodes => "{0} nodes are grouped into {1} columns of identical taints.", "{0} 个节点按相同污点归为 {1} 列。", "{0} nós agrupados em {1} colunas de taints idênticos.";
    NodesInClass => "{0} nodes", "{0} 个节点", "{0} nós";
    Schedulable => "schedulable", "可调度", "agendável";
    Penalized => "PreferNoSchedule penalty", "PreferNoSchedule 扣分", "penalidade PreferNoSchedule";
    Blocked => "blocked", "被阻止", "bloqueado";
    Evicted => "would be evicted", "会被驱逐", "seria despejado";
    EvictedAfter => "evicted after {0} s", "{0} 秒后被驱逐", "despejado após {0} s";
    EvictedNow => "evicted at once", "立即被驱逐", "despejado imediatamente";
    BoundHere => "bound here (nodeName)", "已绑定在此（nodeName）", "vinculado aqui (nodeName)";
    Elsewhere => "bound elsewhere", "绑定在其他节点", "vinculado em outro nó";
    ScoreLabel => "score {0}", "得分 {0}", "pontuação {0}";
    CellTaint => "taint", "污点", "taint";
    CellCordon => "cordon", "封锁", "cordon";
    Legend => "Legend", "图例", "Legenda";
    FitsOn => "fits on {0} of {1}", "可在 {1} 个中的 {0} 个上运行", "cabe em {0} de {1}";
    Pending => "Pending", "Pending", "Pending";
    Rejected => "rejected at admission", "在准入时被拒绝", "rejeitado na admissão";
    ExplainTitle => "Why?", "为什么？", "Por quê?";
    ExplainPick => "Select a cell of the matrix to see why.", "选择矩阵中的一个单元格以查看原因。", "Selecione uma célula da matriz para ver o porquê.";
    PodOnNode => "{0} on {1}", "{0} 在 {1} 上", "{0} em {1}";
    VerdictSchedulable => "The scheduler can place the pod here.", "调度器可以把该 Pod 放在这里。", "O escalonador pode colocar o pod aqui.";
    VerdictPenalized => "The pod can run here, but {0} untolerated PreferNoSchedule taint(s) lower the node's score.", "该 Pod 可以在这里运行，但 {0} 个未容忍的 PreferNoSchedule 污点降低了节点得分。", "O pod pode rodar aqui, mas {0} taint(s) PreferNoSchedule não tolerado(s) reduzem a pontuação do nó.";
    VerdictUnschedulable => "Blocked: the node is cordoned and the pod does not tolerate node.kubernetes.io/unschedulable:NoSchedule (NodeUnschedulable runs before TaintToleration).", "被阻止：节点已封锁（cordon），且 Pod 不容忍 node.kubernetes.io/unschedulable:NoSchedule（NodeUnschedulable 先于 TaintToleration 运行）。", "Bloqueado: o nó está isolado (cordon) e o pod não tolera node.kubernetes.io/unschedulable:NoSchedule (NodeUnschedulable roda antes de TaintToleration).";
    VerdictUntolerated => "Blocked by TaintToleration: the taint {0} is not tolerated.", "被 TaintToleration 阻止：污点 {0} 未被容忍。", "Bloqueado por TaintToleration: o taint {0} não é tolerado.";
    VerdictBypassed => "The pod sets spec.nodeName, so the scheduler never runs for it; the checks below show what it would have said.", "该 Pod 设置了 spec.nodeName，调度器不会为它运行；下面的检查显示调度器本会给出的结论。", "O pod define spec.nodeName, então o escalonador nunca roda para ele; as verificações abaixo mostram o que ele teria dito.";
    SchedulerReason => "Scheduler reason for this node", "调度器对该节点给出的原因", "Motivo do escalonador para este nó";
    TaintsTitle => "Taints of the node", "节点的污点", "Taints do nó";
    NoTaints => "The node has no taints.", "该节点没有污点。", "O nó não tem taints.";
    ColTaint => "Taint", "污点", "Taint";
    ColRole => "Read by", "由谁读取", "Lido por";
    ColToleratedBy => "Tolerated by", "被谁容忍", "Tolerado por";
    RoleFilter => "Filter (NoSchedule)", "过滤（NoSchedule）", "Filtro (NoSchedule)";
    RoleFilterEviction => "Filter, kubelet admission and eviction (NoExecute)", "过滤、kubelet 准入和驱逐（NoExecute）", "Filtro, admissão do kubelet e despejo (NoExecute)";
    RoleScore => "Score only (PreferNoSchedule)", "仅打分（PreferNoSchedule）", "Só pontuação (PreferNoSchedule)";
    RoleNone => "Nothing (invalid effect)", "无（无效的效果）", "Nada (efeito inválido)";
    Untolerated => "not tolerated", "未被容忍", "não tolerado";
    TolerationN => "toleration #{0}", "第 {0} 条容忍", "tolerância nº {0}";
    ViaExistsAnyKey => "empty key with Exists matches every key", "空键加 Exists 匹配所有键", "chave vazia com Exists casa com qualquer chave";
    ViaExists => "same key, Exists ignores the value", "相同的键，Exists 忽略值", "mesma chave, Exists ignora o valor";
    ViaEqual => "same key and Equal value", "相同的键，值相等（Equal）", "mesma chave e valor igual (Equal)";
    ViaLt => "Lt: the taint value is a smaller integer", "Lt：污点值是更小的整数", "Lt: o valor do taint é um inteiro menor";
    ViaGt => "Gt: the taint value is a larger integer", "Gt：污点值是更大的整数", "Gt: o valor do taint é um inteiro maior";
    ViaAnyEffect => "(empty effect matches every effect)", "（空效果匹配所有效果）", "(efeito vazio casa com todos os efeitos)";
    WhyNot => "Why each toleration did or did not match", "每条容忍匹配或不匹配的原因", "Por que cada tolerância casou ou não";
    OutTolerated => "tolerates it", "容忍该污点", "tolera";
    OutEffect => "names another effect", "指定了其他效果", "indica outro efeito";
    OutKey => "names another key", "指定了其他键", "indica outra chave";
    OutValue => "Equal with another value", "Equal 但值不同", "Equal com outro valor";
    OutGateOff => "Lt/Gt while the gate is off", "门控关闭时使用 Lt/Gt", "Lt/Gt com o feature gate desligado";
    OutNotInteger => "Lt/Gt with a value that is not a canonical integer", "Lt/Gt 的值不是规范整数", "Lt/Gt com um valor que não é um inteiro canônico";
    OutComparison => "Lt/Gt comparison is false", "Lt/Gt 比较结果为假", "a comparação Lt/Gt é falsa";
    OutOperator => "unknown operator, never tolerates", "未知运算符，永不容忍", "operador desconhecido, nunca tolera";
    CordonTitle => "Cordon (spec.unschedulable)", "封锁（spec.unschedulable）", "Cordon (spec.unschedulable)";
    CordonNo => "The node is not cordoned.", "该节点未被封锁。", "O nó não está isolado (cordon).";
    CordonTolerated => "The node is cordoned, but {0} tolerates node.kubernetes.io/unschedulable:NoSchedule.", "该节点已封锁，但 {0} 容忍 node.kubernetes.io/unschedulable:NoSchedule。", "O nó está isolado, mas {0} tolera node.kubernetes.io/unschedulable:NoSchedule.";
    CordonBlocks => "The node is cordoned and no toleration covers node.kubernetes.io/unschedulable:NoSchedule.", "该节点已封锁，且没有容忍覆盖 node.kubernetes.io/unschedulable:NoSchedule。", "O nó está isolado e nenhuma tolerância cobre node.kubernetes.io/unschedulable:NoSchedule.";
    ScoreTitle => "Score", "得分", "Pontuação";
    ScoreText => "Raw TaintToleration score {0} (untolerated PreferNoSchedule taints); normalized {1} of 100 among feasible nodes; plugin weight {2}.", "TaintToleration 原始得分 {0}（未容忍的 PreferNoSchedule 污点数）；在可行节点中归一化为 {1}/100；插件权重 {2}。", "Pontuação bruta TaintToleration {0} (taints PreferNoSchedule não tolerados); normalizada {1} de 100 entre os nós viáveis; peso do plugin {2}.";
    NotFeasible => "No score: the node does not pass the filters.", "没有得分：节点未通过过滤。", "Sem pontuação: o nó não passa pelos filtros.";
    KubeletTitle => "Kubelet admission", "kubelet 准入", "Admissão do kubelet";
    KubeletAdmits => "The kubelet would admit the pod (every NoExecute taint is tolerated).", "kubelet 会接纳该 Pod（所有 NoExecute 污点都被容忍）。", "O kubelet admitiria o pod (todo taint NoExecute é tolerado).";
    KubeletRejects => "The kubelet would reject the pod: a NoExecute taint is not tolerated.", "kubelet 会拒绝该 Pod：有 NoExecute 污点未被容忍。", "O kubelet rejeitaria o pod: um taint NoExecute não é tolerado.";
    EvictionTitle => "If the pod runs here", "如果 Pod 在此运行", "Se o pod rodar aqui";
    EvictNotApplicable => "No NoExecute taint: the taint-eviction controller leaves it alone.", "没有 NoExecute 污点：污点驱逐控制器不会处理它。", "Nenhum taint NoExecute: o controlador de despejo por taint o deixa em paz.";
    EvictImmediate => "Evicted at once by the taint-eviction controller.", "会被污点驱逐控制器立即驱逐。", "Despejado imediatamente pelo controlador de despejo por taint.";
    EvictAfterText => "Evicted {0} s after the taint appears (the smallest tolerationSeconds of the first matching tolerations).", "污点出现 {0} 秒后被驱逐（取首个匹配容忍中最小的 tolerationSeconds）。", "Despejado {0} s depois que o taint aparece (o menor tolerationSeconds das primeiras tolerâncias que casam).";
    EvictNever => "Stays bound: every NoExecute taint is tolerated without tolerationSeconds.", "保持绑定：所有 NoExecute 污点都被无 tolerationSeconds 的容忍覆盖。", "Continua vinculado: todo taint NoExecute é tolerado sem tolerationSeconds.";
    PodTolerations => "Tolerations of the pod after admission", "准入后的 Pod 容忍", "Tolerâncias do pod após a admissão";
    NoTolerations => "The pod has no tolerations.", "该 Pod 没有容忍。", "O pod não tem tolerâncias.";
    OriginPod => "written in the pod", "写在 Pod 中", "escrita no pod";
    OriginDaemonSet => "added by the DaemonSet controller", "由 DaemonSet 控制器添加", "adicionada pelo controlador DaemonSet";
    OriginDts => "added by DefaultTolerationSeconds", "由 DefaultTolerationSeconds 添加", "adicionada por DefaultTolerationSeconds";
    OriginNsDefault => "added by PodTolerationRestriction (namespace default)", "由 PodTolerationRestriction 添加（命名空间默认）", "adicionada por PodTolerationRestriction (padrão do namespace)";
    OriginClusterDefault => "added by PodTolerationRestriction (configuration default)", "由 PodTolerationRestriction 添加（配置默认）", "adicionada por PodTolerationRestriction (padrão da configuração)";
    OriginMemoryPressure => "added by PodTolerationRestriction (not BestEffort)", "由 PodTolerationRestriction 添加（非 BestEffort）", "adicionada por PodTolerationRestriction (não BestEffort)";
    OriginExtended => "added by ExtendedResourceToleration", "由 ExtendedResourceToleration 添加", "adicionada por ExtendedResourceToleration";
    Dropped => "Dropped during admission: {0}", "在准入中被丢弃：{0}", "Descartada na admissão: {0}";
    ValidationTitle => "API validation", "API 校验", "Validação da API";
    ValidationOk => "The API server accepts these tolerations.", "API 服务器接受这些容忍。", "O API server aceita estas tolerâncias.";
    ValidationLine => "toleration at line {0}", "第 {0} 行的容忍", "tolerância na linha {0}";
    AdmissionRejected => "Admission rejects this pod:", "准入拒绝了此 Pod：", "A admissão rejeita este pod:";
    FailedSchedulingTitle => "FailedScheduling events", "FailedScheduling 事件", "Eventos FailedScheduling";
    FailedSchedulingNone => "Every pod fits on at least one node.", "每个 Pod 都至少能放到一个节点上。", "Todo pod cabe em pelo menos um nó.";
    PodEvent => "Event for {0}", "{0} 的事件", "Evento de {0}";
    PastedEventsTitle => "Pasted FailedScheduling events", "粘贴的 FailedScheduling 事件", "Eventos FailedScheduling colados";
    EventNodesCount => "The event counted {0} node(s); {1} node(s) are pasted.", "事件统计了 {0} 个节点；已粘贴 {1} 个节点。", "O evento contou {0} nó(s); {1} nó(s) colados.";
    EventNoNodes => "The cluster had no nodes at all.", "集群当时没有任何节点。", "O cluster não tinha nenhum nó.";
    EventVersions => "Wording used by releases: {0}", "使用此措辞的版本：{0}", "Redação usada pelas versões: {0}";
    EventTaintNodes => "Pasted nodes with this taint: {0}", "带有此污点的已粘贴节点：{0}", "Nós colados com este taint: {0}";
    EventTaintedNodes => "Pasted nodes with NoSchedule/NoExecute taints: {0}", "带有 NoSchedule/NoExecute 污点的已粘贴节点：{0}", "Nós colados com taints NoSchedule/NoExecute: {0}";
    EventCordoned => "Pasted cordoned nodes: {0}", "已粘贴的封锁节点：{0}", "Nós colados isolados (cordon): {0}";
    EventSuggest => "A toleration for it:", "可用于它的容忍：", "Uma tolerância para ele:";
    EventMatchesPod => "Exactly the message computed for: {0}", "与为以下 Pod 计算的消息完全一致：{0}", "Exatamente a mensagem calculada para: {0}";
    EventOtherReason => "Not a taint or cordon reason (affinity, ports, resources, volumes…): the matrix shows which pasted nodes each filter rejects; volumes and pod affinity are outside what Taintlab models.", "不是污点或封锁原因（亲和性、端口、资源、卷等）：矩阵显示每个过滤插件拒绝了哪些已粘贴节点；卷和 Pod 亲和性超出 Taintlab 的建模范围。", "Não é um motivo de taint ou cordon (afinidade, portas, recursos, volumes…): a matriz mostra quais nós colados cada filtro rejeita; volumes e afinidade de pod estão fora do que o Taintlab modela.";
    EventTruncated => "The message was cut at 1024 bytes: the last reasons may be missing.", "消息在 1024 字节处被截断：最后的原因可能缺失。", "A mensagem foi cortada em 1024 bytes: os últimos motivos podem estar faltando.";
    NoneWord => "none", "无", "nenhum";
    TimelineTitle => "Eviction timeline", "驱逐时间线", "Linha do tempo de despejo";
    TimelineIntro => "Each pod runs on its node (spec.nodeName, or the scheduler's best node). Add or remove taints at chosen seconds and watch the taint-eviction controller.", "每个 Pod 运行在它的节点上（spec.nodeName，或调度器选出的最佳节点）。在指定秒数添加或删除污点，观察污点驱逐控制器的行为。", "Cada pod roda no seu nó (spec.nodeName, ou o melhor nó do escalonador). Adicione ou remova taints em segundos escolhidos e observe o controlador de despejo por taint.";
    ModeTaints => "Taint changes", "污点变更", "Mudanças de taint";
    ModeFailure => "Node failure preset", "节点故障预设", "Predefinição de falha de nó";
    StepAt => "At second", "在第几秒", "No segundo";
    StepAdd => "add", "添加", "adicionar";
    StepRemove => "remove", "删除", "remover";
    StepTaint => "Taint (key=value:Effect)", "污点（key=value:Effect）", "Taint (key=value:Effect)";
    AddStep => "Add step", "添加步骤", "Adicionar passo";
    RemoveStep => "Remove", "删除", "Remover";
    StepsEmpty => "No taint changes yet: add one, e.g. node.kubernetes.io/unreachable:NoExecute at 60 s.", "还没有污点变更：添加一个，例如在 60 秒添加 node.kubernetes.io/unreachable:NoExecute。", "Nenhuma mudança de taint ainda: adicione uma, p. ex. node.kubernetes.io/unreachable:NoExecute em 60 s.";
    StepInvalid => "Not a taint: {0}", "不是有效的污点：{0}", "Não é um taint: {0}";
    GracePeriod => "node-monitor-grace-period (s)", "node-monitor-grace-period（秒）", "node-monitor-grace-period (s)";
    GraceDefault => "release default: {0} s", "版本默认值：{0} 秒", "padrão da versão: {0} s";
    ApplyDefaults => "Apply DefaultTolerationSeconds to the pods", "对 Pod 应用 DefaultTolerationSeconds", "Aplicar DefaultTolerationSeconds aos pods";
    RecoversAt => "Kubelet reports again at second (empty: never)", "kubelet 在第几秒恢复上报（留空：不恢复）", "O kubelet volta a reportar no segundo (vazio: nunca)";
    FailureNarrative => "Heartbeat lost at 0 s → Ready becomes Unknown after the grace period ({0} s) → node.kubernetes.io/unreachable:NoExecute is added ({1}) → each pod is evicted when its toleration runs out.", "0 秒时失去心跳 → 宽限期（{0} 秒）后 Ready 变为 Unknown → 添加 node.kubernetes.io/unreachable:NoExecute（{1}）→ 每个 Pod 在其容忍到期时被驱逐。", "Heartbeat perdido em 0 s → Ready vira Unknown após o período de tolerância ({0} s) → node.kubernetes.io/unreachable:NoExecute é adicionado ({1}) → cada pod é despejado quando sua tolerância acaba.";
    AtSeconds => "at {0} s", "在 {0} 秒", "em {0} s";
    NeverWord => "never", "从不", "nunca";
    PodNotPlaced => "{0} has no node to run on (it fits nowhere), so nothing can evict it.", "{0} 没有可运行的节点（无处可放），因此不会被驱逐。", "{0} não tem nó para rodar (não cabe em nenhum), então nada pode despejá-lo.";
    OnNode => "on {0}", "在 {0} 上", "em {0}";
    StaysBound => "stays bound", "保持绑定", "continua vinculado";
    EvictedAt => "evicted at {0} s", "在 {0} 秒被驱逐", "despejado em {0} s";
    PendingAt => "eviction pending at {0} s", "驱逐将在 {0} 秒发生", "despejo pendente em {0} s";
    Cancelled => "cancelled at {0} s", "在 {0} 秒取消", "cancelado em {0} s";
    TaintAddedAt => "{0} added at {1} s", "{0} 在 {1} 秒添加", "{0} adicionado em {1} s";
    TaintRemovedAt => "{0} removed at {1} s", "{0} 在 {1} 秒删除", "{0} removido em {1} s";
    ToleratedWindow => "tolerated from {0} s to {1} s", "从 {0} 秒到 {1} 秒被容忍", "tolerado de {0} s a {1} s";
    ReadyUnknownAt => "Ready Unknown at {0} s", "{0} 秒时 Ready 变为 Unknown", "Ready Unknown em {0} s";
    RecoveredAt => "kubelet reports again at {0} s", "kubelet 在 {0} 秒恢复上报", "kubelet volta a reportar em {0} s";
    PodCreatedAt => "pod created at {0} s", "Pod 在 {0} 秒创建", "pod criado em {0} s";
    ControllerEvents => "Events recorded by the controller", "控制器记录的事件", "Eventos registrados pelo controlador";
    SecondsAxis => "seconds", "秒", "segundos";
    NoTimeline => "Add nodes and pods to see timelines.", "添加节点和 Pod 以查看时间线。", "Adicione nós e pods para ver as linhas do tempo.";
    WiTitle => "What if", "假如", "E se";
    WiIntro => "Taint, cordon, drain, fail or delete nodes at chosen seconds and watch the whole cluster respond: evictions, replacements, where they land and what stays Pending.", "在指定秒数给节点加污点、封锁、排空、故障或删除，观察整个集群的反应：驱逐、替换 Pod 落在哪里、哪些仍处于 Pending。", "Aplique taint, cordon, drain, falha ou exclusão de nós em segundos escolhidos e veja o cluster inteiro reagir: despejos, substituições, onde elas caem e o que fica Pending.";
    WiAction => "Action", "操作", "Ação";
    WiDrain => "drain", "排空（drain）", "drain";
    WiTaint => "taint", "加污点（taint）", "taint";
    WiUntaint => "untaint", "移除污点（untaint）", "remover taint (untaint)";
    WiCordon => "cordon", "封锁（cordon）", "cordon";
    WiUncordon => "uncordon", "解除封锁（uncordon）", "uncordon";
    WiFail => "fail (stops reporting)", "故障（停止上报）", "falha (para de reportar)";
    WiRecover => "recover", "恢复", "recuperar";
    WiDelete => "delete node", "删除节点", "excluir nó";
    WiAdd => "Add action", "添加操作", "Adicionar ação";
    WiActions => "Actions, one per line", "操作（每行一个）", "Ações, uma por linha";
    WiActionsHelp => "at SECONDS taint|untaint|cordon|uncordon|drain|fail|recover|delete NODE …, or scale deployment/NAME N -n NAMESPACE", "at 秒数 taint|untaint|cordon|uncordon|drain|fail|recover|delete 节点 …，或 scale deployment/名称 N -n 命名空间", "at SEGUNDOS taint|untaint|cordon|uncordon|drain|fail|recover|delete NÓ …, ou scale deployment/NOME N -n NAMESPACE";
    WiUntil => "Simulate until second", "模拟到第几秒", "Simular até o segundo";
    WiEmpty => "Pick a node and an action, or type action lines, to simulate the cluster.", "选择节点和操作，或输入操作行，以模拟集群。", "Escolha um nó e uma ação, ou digite linhas de ação, para simular o cluster.";
    WiRunning => "Simulating…", "正在模拟…", "Simulando…";
    WiSummary => "Evicted {0}, rescheduled {1}, still Pending {2}.", "驱逐 {0} 个，重新调度 {1} 个，仍 Pending {2} 个。", "Despejados {0}, reagendados {1}, ainda Pending {2}.";
    WiDrainUnfinished => "A drain had not finished.", "有排空尚未完成。", "Um drain não terminou.";
    WiTime => "Simulated 0–{1} s in {0} ms.", "模拟 0–{1} 秒，用时 {0} 毫秒。", "Simulados 0–{1} s em {0} ms.";
    WiAt => "Cluster at {0} s", "第 {0} 秒的集群", "Cluster em {0} s";
    WiPendingLane => "Pending", "Pending", "Pending";
    WiMoreLanes => "{0} more nodes not drawn.", "另有 {0} 个节点未绘制。", "Mais {0} nós não desenhados.";
    WiNodeState => "State", "状态", "Estado";
    WiPodsHere => "Pods", "Pod", "Pods";
    WiCapacity => "Capacity left", "剩余容量", "Capacidade restante";
    WiDrainOutput => "kubectl drain output", "kubectl drain 输出", "Saída do kubectl drain";
    WiEvents => "Events ({0})", "事件（{0}）", "Eventos ({0})";
    WiPickNode => "Pick this node for an action", "选择此节点执行操作", "Escolher este nó para uma ação";
    WiMatrix => "Where each pod could be scheduled at {0} s", "第 {0} 秒时每个 Pod 可调度到哪里", "Onde cada pod poderia ser agendado em {0} s";
    WiMatrixNote => "Each pod is checked as a new pod with its spec would be, against the nodes and the pods bound at that second (its own place counts as taken). ✓ fits; otherwise the first filter that rejects it.", "每个 Pod 都按带相同规约的新 Pod 检查，对照该秒的节点和已绑定的 Pod（它自己的位置算作已占用）。✓ 表示可放入，否则显示第一个拒绝它的过滤器。", "Cada pod é verificado como seria um pod novo com a sua spec, contra os nós e os pods vinculados naquele segundo (o seu próprio lugar conta como ocupado). ✓ cabe; senão, o primeiro filtro que o rejeita.";
    WiMatrixMore => "{0} more pods and {1} more nodes not shown.", "另有 {0} 个 Pod 和 {1} 个节点未显示。", "Mais {0} pods e {1} nós não mostrados.";
    KwTitle => "Kubewarden toleration policy", "Kubewarden 容忍策略", "Política de tolerâncias Kubewarden";
    KwIntro => "The same decision function as the policy module: edit its settings and see what it answers for every pasted pod and workload (a CREATE request).", "与策略模块相同的判定函数：编辑其设置，查看它对每个粘贴的 Pod 和工作负载（CREATE 请求）的回答。", "A mesma função de decisão do módulo da política: edite as configurações e veja o que ela responde para cada pod e carga colados (uma requisição CREATE).";
    KwSettings => "Policy settings (JSON)", "策略设置（JSON）", "Configurações da política (JSON)";
    KwSettingsValid => "Settings are valid.", "设置有效。", "As configurações são válidas.";
    KwSettingsInvalid => "validate_settings rejects them:", "validate_settings 拒绝了它们：", "validate_settings as rejeita:";
    KwUser => "Request user", "请求用户", "Usuário da requisição";
    KwGroups => "Groups (comma separated)", "组（逗号分隔）", "Grupos (separados por vírgula)";
    KwAccepted => "accepted", "接受", "aceito";
    KwRejected => "rejected", "拒绝", "rejeitado";
    KwMutated => "accepted with changes", "接受并修改", "aceito com alterações";
    KwWarnings => "Warnings", "警告", "Avisos";
    KwPatch => "JSON patch", "JSON patch", "JSON patch";
    KwMutations => "What the mutation did", "变更做了什么", "O que a mutação fez";
    KwNoWorkloads => "Paste pods or workloads to see the policy's answers.", "粘贴 Pod 或工作负载以查看策略的回答。", "Cole pods ou cargas para ver as respostas da política.";
    KwEvaluating => "Asking the policy…", "正在询问策略…", "Consultando a política…";
    KwCode => "code {0}", "代码 {0}", "código {0}";
    GalleryTitle => "Examples", "示例", "Exemplos";
    GalleryIntro => "Classic cases, each with a sentence of explanation. Loading one replaces the panes.", "经典案例，每个附一句说明。加载后会替换输入框内容。", "Casos clássicos, cada um com uma frase de explicação. Carregar um substitui os painéis.";
    Load => "Load", "加载", "Carregar";
    Close => "Close", "关闭", "Fechar";
    ExDedicatedTitle => "Dedicated nodes", "专用节点", "Nós dedicados";
    ExDedicatedText => "A team's nodes carry dedicated=payments:NoSchedule and the label dedicated=payments: the toleration lets payments-api in, and its nodeSelector keeps it off every other node.", "某团队的节点带有 dedicated=payments:NoSchedule 污点和 dedicated=payments 标签：容忍让 payments-api 能进入，它的 nodeSelector 让它不去其他任何节点。", "Os nós de um time têm dedicated=payments:NoSchedule e o label dedicated=payments: a tolerância deixa payments-api entrar, e seu nodeSelector o mantém fora de qualquer outro nó.";
    ExGpuTitle => "Special hardware (GPUs)", "特殊硬件（GPU）", "Hardware especial (GPUs)";
    ExGpuText => "GPU nodes are tainted nvidia.com/gpu and labelled accelerator=nvidia; ExtendedResourceToleration adds the toleration to pods that request nvidia.com/gpu, the nodeSelector keeps them on the pool — and once the running jobs hold every GPU, the next one stays Pending.", "GPU 节点带有 nvidia.com/gpu 污点和 accelerator=nvidia 标签；ExtendedResourceToleration 为请求 nvidia.com/gpu 的 Pod 添加容忍，nodeSelector 让它们留在该节点池——当运行中的任务占满所有 GPU 后，下一个任务保持 Pending。", "Nós com GPU têm o taint nvidia.com/gpu e o label accelerator=nvidia; ExtendedResourceToleration adiciona a tolerância aos pods que pedem nvidia.com/gpu, o nodeSelector os mantém no pool — e quando os jobs rodando ocupam todas as GPUs, o próximo fica Pending.";
    ExEvictionTitle => "Taint-based eviction", "基于污点的驱逐", "Despejo baseado em taints";
    ExEvictionText => "A node becomes unreachable: pods with the default 300 s toleration go after 300 s, one with 30 s goes first, one with no tolerationSeconds stays.", "节点变为不可达：带默认 300 秒容忍的 Pod 在 300 秒后离开，30 秒的先走，没有 tolerationSeconds 的留下。", "Um nó fica inacessível: pods com a tolerância padrão de 300 s saem após 300 s, um com 30 s sai primeiro, um sem tolerationSeconds fica.";
    ExFailureTitle => "A node stops reporting", "节点停止上报", "Um nó para de reportar";
    ExFailureText => "The kubelet goes silent: after the node-monitor grace period Ready turns Unknown, the unreachable NoExecute taint arrives, and pods leave when their 300 s default tolerations run out.", "kubelet 停止上报：节点监控宽限期过后 Ready 变为 Unknown，添加 unreachable NoExecute 污点，Pod 在 300 秒默认容忍到期后离开。", "O kubelet fica em silêncio: após o período de tolerância do monitor de nós, Ready vira Unknown, chega o taint unreachable NoExecute e os pods saem quando suas tolerâncias padrão de 300 s acabam.";
    ExWildcardTitle => "The tolerate-everything toleration", "容忍一切的容忍", "A tolerância que tolera tudo";
    ExWildcardText => "operator: Exists with no key tolerates every taint, even NoExecute ones — which is why the Kubewarden policy denies it by default.", "没有键的 operator: Exists 容忍所有污点，包括 NoExecute——这就是 Kubewarden 策略默认拒绝它的原因。", "operator: Exists sem chave tolera todo taint, até NoExecute — por isso a política Kubewarden o nega por padrão.";
    ExDaemonSetTitle => "DaemonSet defaults", "DaemonSet 默认值", "Padrões do DaemonSet";
    ExDaemonSetText => "The DaemonSet controller adds Exists tolerations for not-ready, unreachable, pressure and unschedulable taints, so daemons run on cordoned and failing nodes.", "DaemonSet 控制器为 not-ready、unreachable、各种压力和 unschedulable 污点添加 Exists 容忍，因此守护进程能在封锁和故障节点上运行。", "O controlador DaemonSet adiciona tolerâncias Exists para taints not-ready, unreachable, de pressão e unschedulable, então daemons rodam em nós isolados e com falha.";
    ExThresholdTitle => "Lt/Gt thresholds", "Lt/Gt 阈值", "Limiares Lt/Gt";
    ExThresholdText => "From 1.35 with the gate on, operator: Gt tolerates taints whose integer value is larger — e.g. nodes with a reliability score above 90.", "从 1.35 起且开启门控后，operator: Gt 容忍整数值更大的污点——例如可靠性得分高于 90 的节点。", "A partir da 1.35 com o feature gate ligado, operator: Gt tolera taints cujo valor inteiro é maior — p. ex. nós com nota de confiabilidade acima de 90.";
    ExEventTitle => "Explain a FailedScheduling event", "解释 FailedScheduling 事件", "Explicar um evento FailedScheduling";
    ExEventText => "A pending pod's event, pasted next to the nodes: each count is traced back to the nodes and taints behind it.", "把 Pending Pod 的事件与节点一起粘贴：每个计数都能追溯到对应的节点和污点。", "O evento de um pod pendente, colado junto aos nós: cada contagem é ligada aos nós e taints por trás dela.";
    CellAffinity => "affinity", "亲和性", "afinidade";
    CellNodeName => "nodeName", "nodeName", "nodeName";
    CellPorts => "ports", "端口", "portas";
    CellGated => "gated", "已门控", "retido";
    CellOtherScheduler => "other scheduler", "其他调度器", "outro escalonador";
    CellNoDaemonPod => "no daemon pod", "无守护 Pod", "sem pod daemon";
    CellError => "error", "错误", "erro";
    RejectedBy => "rejected by {0}", "被 {0} 拒绝", "rejeitado por {0}";
    ShortBy => "{0} short by {1}", "{0} 缺少 {1}", "faltam {1} de {0}";
    ResourcesNotChecked => "allocatable unknown, resources not checked", "可分配量未知，未检查资源", "alocável desconhecido, recursos não verificados";
    LegendFilters => "Blocked cells name the filter that rejected them: taint, cordon, affinity (nodeSelector / node affinity), nodeName, ports, or the resource that runs short and by how much.", "被阻止的单元格会写出拒绝它的过滤插件：taint（污点）、cordon（封锁）、affinity（nodeSelector / 节点亲和性）、nodeName、ports（端口），或不足的资源及缺少的数量。", "Células bloqueadas indicam o filtro que as rejeitou: taint, cordon, afinidade (nodeSelector / afinidade de nó), nodeName, portas, ou o recurso que falta e quanto falta.";
    NodeLabelsOf => "labels of {0}", "{0} 的标签", "labels de {0}";
    NodeResourcesTitle => "Requested / allocatable per node", "各节点已请求 / 可分配的资源", "Solicitado / alocável por nó";
    NodeResourcesIntro => "What the pods already running on each node (pasted pods with spec.nodeName) request, against status.allocatable, for each resource the pasted pods use.", "每个节点上已运行的 Pod（粘贴的带 spec.nodeName 的 Pod）请求的资源，对比 status.allocatable，只列出粘贴的 Pod 用到的资源。", "O que os pods já rodando em cada nó (pods colados com spec.nodeName) solicitam, contra status.allocatable, para cada recurso usado pelos pods colados.";
    AllocatableUnknown => "allocatable unknown: resources are not checked on this node", "可分配量未知：不在此节点上检查资源", "alocável desconhecido: recursos não são verificados neste nó";
    BarText => "{0} of {1} requested", "已请求 {0}/{1}", "{0} de {1} solicitados";
    ColResource => "Resource", "资源", "Recurso";
    ColPodRequest => "Pod requests", "Pod 请求", "Pod solicita";
    ColUsed => "Already requested", "已被请求", "Já solicitado";
    ColAllocatable => "Allocatable", "可分配", "Alocável";
    ColLeft => "Left after the pod", "放入 Pod 后剩余", "Sobra depois do pod";
    FiltersTitle => "Filters, in the scheduler's order", "过滤插件（按调度器顺序）", "Filtros, na ordem do escalonador";
    FilterPassed => "passed", "通过", "passou";
    FilterFailed => "rejects the node", "拒绝该节点", "rejeita o nó";
    FilterNotEvaluated => "not evaluated", "未评估", "não avaliado";
    FilterNotChecked => "not checked: the node's allocatable is unknown", "未检查：节点的可分配量未知", "não verificado: o alocável do nó é desconhecido";
    FiltersStop => "From 1.27 the scheduler stops at a node's first failing filter; the filters after it are not evaluated.", "从 1.27 起，调度器在节点的第一个失败过滤插件处停止；其后的过滤插件不会被评估。", "A partir da 1.27 o escalonador para no primeiro filtro que falha em um nó; os filtros seguintes não são avaliados.";
    FiltersUnmodelled => "Not run here: {0}. A pod that uses volumes, pod (anti-)affinity or topology spread constraints may still be rejected by them.", "此处未运行：{0}。使用卷、Pod（反）亲和性或拓扑分布约束的 Pod 仍可能被它们拒绝。", "Não executados aqui: {0}. Um pod que usa volumes, (anti)afinidade de pod ou restrições de distribuição de topologia ainda pode ser rejeitado por eles.";
    CodeUnschedulable => "Unschedulable: preemption may help", "Unschedulable：抢占可能有帮助", "Unschedulable: a preempção pode ajudar";
    CodeUnresolvable => "UnschedulableAndUnresolvable: preemption cannot help", "UnschedulableAndUnresolvable：抢占无济于事", "UnschedulableAndUnresolvable: a preempção não ajuda";
    VerdictRejectedBy => "Blocked by {0}.", "被 {0} 阻止。", "Bloqueado por {0}.";
    VerdictPreFilter => "Blocked by NodeAffinity's PreFilter: the pod's node affinity names other nodes, so this one is never filtered.", "被 NodeAffinity 的 PreFilter 阻止：Pod 的节点亲和性指定了其他节点，因此此节点不会进入过滤。", "Bloqueado pelo PreFilter de NodeAffinity: a afinidade de nó do pod indica outros nós, então este nunca é filtrado.";
    HoldGated => "The pod has spec.schedulingGates: it waits outside the scheduling queue and gets no FailedScheduling event.", "该 Pod 设置了 spec.schedulingGates：它在调度队列之外等待，不会产生 FailedScheduling 事件。", "O pod tem spec.schedulingGates: espera fora da fila de escalonamento e não recebe evento FailedScheduling.";
    HoldOtherScheduler => "The pod names another spec.schedulerName: the default scheduler does not place it.", "该 Pod 指定了其他 spec.schedulerName：默认调度器不会放置它。", "O pod indica outro spec.schedulerName: o escalonador padrão não o posiciona.";
    HoldNoDaemonPod => "The DaemonSet controller creates no pod for this node (its nodeSelector, node affinity or an untolerated NoSchedule/NoExecute taint rules the node out).", "DaemonSet 控制器不会为此节点创建 Pod（其 nodeSelector、节点亲和性或未容忍的 NoSchedule/NoExecute 污点排除了该节点）。", "O controlador DaemonSet não cria pod para este nó (seu nodeSelector, afinidade de nó ou um taint NoSchedule/NoExecute não tolerado exclui o nó).";
    HoldError => "The scheduling cycle ended with an error before any node was filtered.", "调度周期在过滤任何节点之前以错误结束。", "O ciclo de escalonamento terminou com erro antes de filtrar qualquer nó.";
    LabelsTitle => "Labels of the node", "节点的标签", "Labels do nó";
    NoLabels => "The node has no labels.", "该节点没有标签。", "O nó não tem labels.";
    SelectorTitle => "nodeSelector and node affinity", "nodeSelector 与节点亲和性", "nodeSelector e afinidade de nó";
    NoSelector => "The pod has no nodeSelector and no required node affinity: every node's labels pass.", "该 Pod 没有 nodeSelector，也没有必需的节点亲和性：所有节点的标签都满足。", "O pod não tem nodeSelector nem afinidade de nó obrigatória: os labels de todo nó passam.";
    LabelMatches => "the node has it", "节点有此标签", "o nó tem";
    LabelOther => "the node has {0}", "节点的值为 {0}", "o nó tem {0}";
    LabelMissing => "the node has no such label", "节点没有此标签", "o nó não tem esse label";
    TermMatches => "required term #{0} matches", "必需条件 #{0} 匹配", "termo obrigatório nº {0} casa";
    TermFails => "required term #{0} does not match", "必需条件 #{0} 不匹配", "termo obrigatório nº {0} não casa";
    TermsOr => "Required terms are ORed (one matching term is enough); the expressions of a term are ANDed.", "必需条件之间为“或”（匹配一个即可）；一个条件内的表达式为“与”。", "Termos obrigatórios são combinados com OU (basta um casar); as expressões de um termo, com E.";
    PortsTitle => "Host ports", "主机端口", "Portas do host";
    PortInUse => "{0} is already used on this node", "{0} 已在此节点上被占用", "{0} já está em uso neste nó";
    ResourcesTitle => "Resources (NodeResourcesFit)", "资源（NodeResourcesFit）", "Recursos (NodeResourcesFit)";
    ResourcesUnknown => "The node's status.allocatable is unknown (not pasted): resources are not checked here, and a real scheduler may still find the node full.", "节点的 status.allocatable 未知（未粘贴）：此处不检查资源，真实的调度器仍可能认为该节点已满。", "O status.allocatable do nó é desconhecido (não colado): recursos não são verificados aqui, e um escalonador real ainda pode achar o nó cheio.";
    ScoresTitle => "Scores of the modelled plugins", "已建模插件的得分", "Pontuações dos plugins modelados";
    ScorePlugin => "{0}: {1} of 100, weight {2}", "{0}：{1}/100，权重 {2}", "{0}: {1} de 100, peso {2}";
    ScoreNotComputed => "{0}: not computed (allocatable unknown or the plugin skips the pod)", "{0}：未计算（可分配量未知或插件跳过该 Pod）", "{0}: não calculado (alocável desconhecido ou o plugin ignora o pod)";
    ScoreCombined => "Combined modelled score: {0}", "已建模得分合计：{0}", "Pontuação modelada combinada: {0}";
    ScoreUnmodelled => "Not modelled: {0}. The node with the highest combined score here is not necessarily the one the scheduler picks.", "未建模：{0}。此处合计得分最高的节点不一定是调度器选中的节点。", "Não modelados: {0}. O nó com a maior pontuação combinada aqui não é necessariamente o que o escalonador escolhe.";
    PreemptionHelps => "Preemption would help: the scheduler nominates {0} and evicts these lower-priority pods:", "抢占会有帮助：调度器提名 {0}，并驱逐以下较低优先级的 Pod：", "A preempção ajudaria: o escalonador nomeia {0} e remove estes pods de prioridade menor:";
    VictimLine => "{0} (priority {1})", "{0}（优先级 {1}）", "{0} (prioridade {1})";
    AddPlacement => "Add a nodeSelector / affinity term", "添加 nodeSelector / 亲和性条件", "Adicionar nodeSelector / termo de afinidade";
    FieldTermKind => "Where", "位置", "Onde";
    TermNodeSelector => "nodeSelector", "nodeSelector", "nodeSelector";
    TermRequired => "required node affinity", "必需的节点亲和性", "afinidade de nó obrigatória";
    TermPreferred => "preferred node affinity (weight 50)", "偏好的节点亲和性（权重 50）", "afinidade de nó preferida (peso 50)";
    FieldValues => "Values (comma-separated)", "值（逗号分隔）", "Valores (separados por vírgula)";
    PlacementInvalid => "A key is required; nodeSelector needs one value; In, NotIn, Gt and Lt need values; Exists and DoesNotExist take none.", "必须填写键；nodeSelector 需要一个值；In、NotIn、Gt、Lt 需要值；Exists 和 DoesNotExist 不需要值。", "A chave é obrigatória; nodeSelector precisa de um valor; In, NotIn, Gt e Lt precisam de valores; Exists e DoesNotExist não levam valores.";
    ExTenantsTitle => "Draining a tenant's node", "排空租户节点", "Drenando um nó de um tenant";
    ExTenantsText => "Two tenants each have a tainted, labelled node pool. The What-if tab drains acme-1: each evicted pod's replacement lands on another acme node, never on globex's pool or the shared node, and the PodDisruptionBudget (minAvailable 2) refuses the second storefront eviction; kubectl drain retries it 5 s later, once the first replacement runs.", "两个租户各有一个带污点和标签的节点池。“假如”标签页排空 acme-1：每个被驱逐 Pod 的替代 Pod 都落在另一个 acme 节点上，从不落在 globex 的节点池或共享节点上；PodDisruptionBudget（minAvailable 2）拒绝第二个 storefront 的驱逐，kubectl drain 在 5 秒后、第一个替代 Pod 运行后重试。", "Dois tenants têm cada um um pool de nós com taint e label. A aba E se drena acme-1: o substituto de cada pod despejado vai para outro nó acme, nunca para o pool de globex nem para o nó compartilhado, e o PodDisruptionBudget (minAvailable 2) recusa o segundo despejo de storefront; o kubectl drain tenta de novo 5 s depois, quando o primeiro substituto já roda.";
    ExMixedTitle => "Taints and cpu together", "污点与 CPU 同时出现", "Taints e cpu juntos";
    ExMixedText => "The event people actually paste: one node is tainted, two are full of cpu requests — so the message counts both, and preemption finds no lower-priority victims.", "人们实际粘贴的事件：一个节点有污点，另外两个节点的 CPU 请求已满——因此消息同时统计两者，抢占也找不到优先级更低的牺牲者。", "O evento que as pessoas de fato colam: um nó tem taint, dois estão cheios de requisições de cpu — a mensagem conta os dois, e a preempção não acha vítimas de prioridade menor.";
    ShareErrorTitle => "This share link could not be opened", "无法打开此分享链接", "Não foi possível abrir este link de compartilhamento";
    ShareErrVersion => "Unknown share-link version {0}; this page reads v=1.", "未知的分享链接版本 {0}；本页面只读取 v=1。", "Versão de link desconhecida {0}; esta página lê v=1.";
    ShareErrEncoding => "The link is not valid base64url.", "链接不是有效的 base64url。", "O link não é base64url válido.";
    ShareErrTooLarge => "The link is larger than the {0} characters this page accepts.", "链接超过了本页面接受的 {0} 个字符。", "O link é maior que os {0} caracteres que esta página aceita.";
    ShareErrInflate => "The link's data is not valid compressed data, or it expands beyond {0} bytes.", "链接数据不是有效的压缩数据，或解压后超过 {0} 字节。", "Os dados do link não são dados comprimidos válidos, ou expandem além de {0} bytes.";
    ShareErrJson => "The link's data is not a playground state: {0}", "链接数据不是演练场状态：{0}", "Os dados do link não são um estado do playground: {0}";
    ShareErrMissing => "The link has no state (expected #v=1&s=…).", "链接中没有状态（应为 #v=1&s=…）。", "O link não tem estado (esperado #v=1&s=…).";
    ImportError => "Could not import: {0}", "无法导入：{0}", "Não foi possível importar: {0}";
    Dismiss => "Dismiss", "关闭", "Dispensar";
    NotSavedLocally => "Too large to keep in local storage; use Export to save it.", "太大，无法保存在本地存储中；请用导出来保存。", "Grande demais para o armazenamento local; use Exportar para salvá-lo.";
    ConfigErrors => "Admission configuration problems", "准入配置问题", "Problemas na configuração da admissão";
    AddLabel => "Add or remove a node label", "添加或删除节点标签", "Adicionar ou remover um label de nó";
    LabelsOf => "Labels of {0}:", "{0} 的标签：", "Labels de {0}:";
    RemoveLabel => "Remove label {0} (appends kubectl label … {0}-)", "删除标签 {0}（追加 kubectl label … {0}-）", "Remover o label {0} (acrescenta kubectl label … {0}-)";
    LabelKeyRequired => "A label key is required.", "必须填写标签键。", "A chave do label é obrigatória.";
    LabelRejected => "kubectl would refuse this label:", "kubectl 会拒绝这个标签：", "O kubectl recusaria este label:";
    BlocksTitle => "Read block by block ({0})", "逐块读取结果（{0}）", "Lido bloco a bloco ({0})";
    LinesRange => "lines {0}–{1}", "第 {0}–{1} 行", "linhas {0}–{1}";
    FactCordoned => "{0} cordoned", "{0} 个已封锁", "{0} isolado(s)";
    FactBound => "{0} bound", "{0} 个已绑定", "{0} vinculado(s)";
    FactPending => "{0} pending", "{0} 个等待中", "{0} pendente(s)";
    FactWorkloads => "{0} workload(s)", "{0} 个工作负载", "{0} carga(s) de trabalho";
    FactTaints => "{0} taint(s)", "{0} 个污点", "{0} taint(s)";
    FactTolerations => "{0} toleration(s)", "{0} 个容忍", "{0} tolerância(s)";
    FactLabelCommands => "{0} kubectl label command(s)", "{0} 条 kubectl label 命令", "{0} comando(s) kubectl label";
    FactPriorityClasses => "{0} PriorityClass(es)", "{0} 个 PriorityClass", "{0} PriorityClass(es)";
    FactDisruptionBudgets => "{0} PodDisruptionBudget(s)", "{0} 个 PodDisruptionBudget", "{0} PodDisruptionBudget(s)";
    BlockNothingRead => "nothing read", "未读取到内容", "nada lido";
    Footer => "Runs entirely in your browser: nothing you paste leaves this page.", "完全在浏览器中运行：你粘贴的内容不会离开此页面。", "Roda inteiramente no seu navegador: nada do que você cola sai desta página.";
}

/// Replaces `{0}`, `{1}`, ... in a template.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.find('}') {
            Some(j) => match after[..j].parse::<usize>().ok().and_then(|n| args.get(n)) {
                Some(a) => {
                    out.push_str(a);
                    rest = &after[j + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            },
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The current language, from context (English outside a provider).
#[hook]
pub fn use_lang() -> Lang {
    use_context::<Lang>().unwrap_or_default()
}

/// Translates with the current language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct T(pub Lang);

impl T {
    /// The string for `key`.
    pub fn s(self, key: K) -> &'static str {
        tr(self.0, key)
    }

    /// The string for `key` with `{n}` placeholders filled.
    pub fn f(self, key: K, args: &[&str]) -> String {
        fill(tr(self.0, key), args)
    }
}

/// The translator for the current language.
#[hook]
pub fn use_t() -> T {
    T(use_lang())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_from_browser_tags() {
        assert_eq!(Lang::from_tag("zh-CN"), Lang::ZhCn);
        assert_eq!(Lang::from_tag("zh-Hans-SG"), Lang::ZhCn);
        assert_eq!(Lang::from_tag("pt-BR"), Lang::PtBr);
        assert_eq!(Lang::from_tag("pt"), Lang::PtBr);
        assert_eq!(Lang::from_tag("en-GB"), Lang::En);
        assert_eq!(Lang::from_tag("de"), Lang::En);
        assert_eq!(Lang::from_tag(""), Lang::En);
    }

    #[test]
    fn fill_replaces_placeholders() {
        assert_eq!(fill("{0} of {1}", &["3", "5"]), "3 of 5");
        assert_eq!(fill("{1}{0}", &["a", "b"]), "ba");
        assert_eq!(fill("{x} {9} {", &["a"]), "{x} {9} {");
    }

    #[test]
    fn every_translation_is_present_and_keeps_placeholders() {
        for &k in K::ALL {
            let en = tr(Lang::En, k);
            for lang in [Lang::ZhCn, Lang::PtBr] {
                let s = tr(lang, k);
                assert!(!s.is_empty(), "{k:?} empty in {lang:?}");
                for n in 0..4 {
                    let p = format!("{{{n}}}");
                    assert_eq!(
                        en.contains(&p),
                        s.contains(&p),
                        "{k:?} {lang:?} placeholder {p}"
                    );
                }
            }
        }
    }
}
