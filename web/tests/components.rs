//! Component tests in a real browser (wasm-bindgen-test in headless Chromium):
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p taintlab-web --target wasm32-unknown-unknown`.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use taintlab_web::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlSelectElement, HtmlTextAreaElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

/// Waits until `cond` holds (checked after every short yield to the browser), failing
/// with `what` after twenty seconds (generous: a loaded CI machine runs the debug build).
async fn until(what: &str, cond: impl Fn() -> bool) {
    let deadline = js_sys::Date::now() + 20_000.0;
    while !cond() {
        assert!(
            js_sys::Date::now() < deadline,
            "timed out waiting for {what}"
        );
        yew::platform::time::sleep(Duration::from_millis(5)).await;
    }
}

fn has(root: &Element, sel: &str) -> bool {
    root.query_selector(sel).ok().flatten().is_some()
}

thread_local! {
    /// The app the previous test mounted, destroyed before the next one mounts.
    static MOUNTED: std::cell::RefCell<Option<(yew::AppHandle<App>, Element)>> =
        const { std::cell::RefCell::new(None) };
}

/// Mounts a fresh app (local storage cleared, so it starts on the first example) and
/// waits until it has settled: the matrix is drawn and the first state is saved, so
/// every effect of the first render has run. The previous test's app is destroyed
/// first; left alive, its pending save could land after the clear and become the new
/// app's starting state.
async fn mount() -> Element {
    if let Some((handle, root)) = MOUNTED.with(|m| m.borrow_mut().take()) {
        handle.destroy();
        root.remove();
    }
    let storage = || web_sys::window().and_then(|w| w.local_storage().ok().flatten());
    if let Some(s) = storage() {
        let _ = s.clear();
    }
    let root = document().create_element("div").expect("div");
    document()
        .body()
        .expect("body")
        .append_child(&root)
        .expect("append");
    let handle = yew::Renderer::<App>::with_root(root.clone()).render();
    MOUNTED.with(|m| *m.borrow_mut() = Some((handle, root.clone())));
    until("the first example's matrix and its saved state", || {
        count(&root, "table.matrix button.cell") > 0
            && storage()
                .and_then(|s| s.get_item(taintlab_web::share::STATE_KEY).ok().flatten())
                .is_some()
    })
    .await;
    root
}

fn q(root: &Element, sel: &str) -> Element {
    root.query_selector(sel)
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no {sel}"))
}

fn text(root: &Element, sel: &str) -> String {
    q(root, sel).text_content().unwrap_or_default()
}

fn count(root: &Element, sel: &str) -> u32 {
    root.query_selector_all(sel)
        .map(|l| l.length())
        .unwrap_or(0)
}

fn type_into(root: &Element, sel: &str, value: &str) {
    let ta: HtmlTextAreaElement = q(root, sel).dyn_into().expect("textarea");
    ta.set_value(value);
    let init = web_sys::InputEventInit::new();
    init.set_bubbles(true);
    let ev = web_sys::InputEvent::new_with_event_init_dict("input", &init).expect("event");
    ta.dispatch_event(&ev).expect("dispatch");
}

#[wasm_bindgen_test]
async fn first_visit_shows_the_dedicated_nodes_matrix() {
    let root = mount().await;
    // 2 pods × 3 nodes.
    assert_eq!(count(&root, "table.matrix tbody tr"), 2);
    assert_eq!(count(&root, "table.matrix button.cell"), 6);
    // web is blocked on the two payments nodes and fits on general-1.
    let web_row: Vec<String> = (0..3)
        .map(|c| q(&root, &format!("#cell-1-{c}")).class_name())
        .collect();
    assert!(
        web_row[0].contains("bad") && web_row[1].contains("bad") && web_row[2].contains("ok"),
        "{web_row:?}"
    );
}

#[wasm_bindgen_test]
async fn typing_recomputes_live_and_errors_point_at_their_line() {
    let root = mount().await;
    type_into(
        &root,
        "#nodes-text",
        "kubectl taint nodes n1 dedicated=gpu:NoSchedule\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n2}\nspec:\n  taints:\n  - {key: a, value: b, effect: NoSchedul}\n",
    );
    until("two node columns", || {
        count(&root, "table.matrix thead th") == 2
    })
    .await;
    // The bad effect is reported at line 8, listed and marked.
    let diag = text(&root, "#nodes-diagnostics");
    assert!(diag.contains("Line 8"), "{diag}");
    assert!(count(&root, ".marks .mark.error") >= 1);
    // kubectl's own output for the command.
    assert!(text(&root, ".kubectl").contains("node/n1 tainted"));
}

#[wasm_bindgen_test]
async fn clicking_a_cell_explains_it() {
    let root = mount().await;
    let cell: HtmlElement = q(&root, "#cell-1-0").dyn_into().expect("button");
    cell.click();
    until("the explanation", || has(&root, ".explanation")).await;
    let why = text(&root, ".explanation");
    assert!(why.contains("web on payments-1"), "{why}");
    assert!(why.contains("dedicated=payments:NoSchedule"), "{why}");
    assert!(why.contains("node(s) had untolerated taint(s)"), "{why}");
}

#[wasm_bindgen_test]
async fn arrow_keys_move_focus_in_the_matrix() {
    let root = mount().await;
    let first: HtmlElement = q(&root, "#cell-0-0").dyn_into().expect("button");
    first.focus().expect("focus");
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("ArrowRight");
    init.set_bubbles(true);
    let ev =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("event");
    first.dispatch_event(&ev).expect("dispatch");
    // Focus moves at once; the roving tabindex follows on the next render.
    until("focus and the tab stop on the next cell", || {
        document().active_element().map(|e| e.id()).as_deref() == Some("cell-0-1")
            && q(&root, "#cell-0-1").get_attribute("tabindex").as_deref() == Some("0")
    })
    .await;
    let active = document()
        .active_element()
        .map(|e| e.id())
        .unwrap_or_default();
    assert_eq!(active, "cell-0-1");
    assert_eq!(
        q(&root, "#cell-0-1").get_attribute("tabindex").as_deref(),
        Some("0")
    );
    assert_eq!(
        q(&root, "#cell-0-0").get_attribute("tabindex").as_deref(),
        Some("-1")
    );
}

#[wasm_bindgen_test]
async fn language_switch_changes_the_interface_not_the_engine_text() {
    let root = mount().await;
    let select: HtmlSelectElement = q(&root, "#lang-select").dyn_into().expect("select");
    select.set_value("zh-CN");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    select
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).expect("event"))
        .expect("dispatch");
    until("the Chinese title", || text(&root, "h1").contains("演练场")).await;
    let cell: HtmlElement = q(&root, "#cell-1-0").dyn_into().expect("button");
    cell.click();
    until("the explanation", || has(&root, ".explanation")).await;
    // The scheduler's reason stays in English, as a cluster prints it.
    assert!(text(&root, ".explanation").contains("node(s) had untolerated taint(s)"));
    select.set_value("en");
    select
        .dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).expect("event"))
        .expect("dispatch");
    until("the English title", || {
        text(&root, "h1").contains("Taintlab playground")
    })
    .await;
}

#[wasm_bindgen_test]
async fn the_state_is_kept_in_local_storage() {
    let root = mount().await;
    type_into(
        &root,
        "#pods-text",
        "tolerations:\n- {key: dedicated, operator: Exists}\n",
    );
    let stored = || {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .and_then(|s| s.get_item(taintlab_web::share::STATE_KEY).ok().flatten())
    };
    until("the typed text in local storage", || {
        stored().is_some_and(|s| s.contains("operator: Exists"))
    })
    .await;
    let state = taintlab_web::share::from_local(&stored().expect("stored")).expect("a state");
    assert!(state.pods.contains("operator: Exists"));
}

fn click(root: &Element, sel: &str) {
    let el: HtmlElement = q(root, sel).dyn_into().expect("an element");
    el.click();
}

async fn load_example(root: &Element, id: &str) {
    click(root, "#gallery-button");
    let button = format!("[data-example=\"{id}\"] button");
    until("the gallery", || has(root, &button)).await;
    click(root, &button);
}

#[wasm_bindgen_test]
async fn a_node_selector_keeps_the_pod_on_its_pool_and_lost_gets_the_clusters_message() {
    let root = mount().await;
    type_into(
        &root,
        "#nodes-text",
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: payments-1\n  labels: {dedicated: payments}\nspec:\n  taints: [{key: dedicated, value: payments, effect: NoSchedule}]\n---\napiVersion: v1\nkind: Node\nmetadata: {name: general-1}\n",
    );
    type_into(
        &root,
        "#pods-text",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: api}\nspec:\n  nodeSelector: {dedicated: payments}\n  tolerations: [{key: dedicated, operator: Equal, value: payments, effect: NoSchedule}]\n  containers: [{name: c, image: nginx}]\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: lost}\nspec:\n  nodeSelector: {disktype: ssd}\n  containers: [{name: c, image: nginx}]\n",
    );
    until("api and lost against payments-1 and general-1", || {
        count(&root, "table.matrix thead th") == 2
            && count(&root, "table.matrix tbody tr") == 2
            && text(&root, "table.matrix tbody").contains("lost")
    })
    .await;
    // The label is shown in the column header.
    assert!(text(&root, "table.matrix thead").contains("dedicated=payments"));
    // api fits payments-1 only; general-1 is rejected by its nodeSelector.
    assert!(q(&root, "#cell-0-0").class_name().contains("ok"));
    assert!(q(&root, "#cell-0-1").class_name().contains("bad"));
    assert_eq!(text(&root, "#cell-0-1 .score"), "affinity");
    // lost: the taint on payments-1, its selector on general-1.
    assert_eq!(text(&root, "#cell-1-0 .score"), "taint");
    assert_eq!(text(&root, "#cell-1-1 .score"), "affinity");
    let events = text(&root, ".events");
    assert!(
        events.contains("0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."),
        "{events}"
    );
    // The explanation lists every filter, the failing one first, the rest not evaluated.
    click(&root, "#cell-0-1");
    until("the explanation", || has(&root, ".explanation ol.filters")).await;
    let filters: Vec<String> = (1..=6)
        .map(|i| text(&root, &format!(".explanation ol.filters li:nth-child({i})")))
        .collect();
    assert!(
        filters[0].contains("NodeUnschedulable") && filters[0].contains("passed"),
        "{filters:?}"
    );
    assert!(
        filters[3].contains("NodeAffinity")
            && filters[3].contains("didn't match Pod's node affinity/selector"),
        "{filters:?}"
    );
    assert!(
        filters[4].contains("not evaluated") && filters[5].contains("not evaluated"),
        "{filters:?}"
    );
    let why = text(&root, ".explanation");
    assert!(why.contains("Blocked by NodeAffinity."), "{why}");
    assert!(why.contains("nodeSelector dedicated=payments"), "{why}");
    assert!(why.contains("the node has no such label"), "{why}");
}

#[wasm_bindgen_test]
async fn a_resource_cell_names_the_resource_and_its_shortfall_and_bars_show_the_load() {
    let root = mount().await;
    load_example(&root, "mixed").await;
    until("the mixed example", || {
        has(&root, ".node-resources") && text(&root, "table.matrix thead").contains("small-1")
    })
    .await;
    // web on small-1: 1 cpu allocatable, 900m requested, web asks 500m: short by 400m.
    let cell = q(&root, "#cell-0-1");
    assert!(cell.class_name().contains("bad"));
    assert_eq!(text(&root, "#cell-0-1 .score"), "cpu −400m");
    let name = cell.get_attribute("aria-label").unwrap_or_default();
    assert!(name.contains("Insufficient cpu"), "{name}");
    assert!(name.contains("cpu short by 400m"), "{name}");
    // The pasted event is exactly the computed one.
    assert!(text(&root, ".pasted-events").contains("Exactly the message computed for: web"));
    // Bars: requested / allocatable per node; the finished pod does not count.
    let bar = |node: &str| {
        text(
            &root,
            &format!(
                ".node-resources tr[data-node=\"{node}\"] td[data-resource=\"cpu\"] .bar-text"
            ),
        )
    };
    assert_eq!(bar("small-1"), "900m of 1 requested");
    assert_eq!(bar("small-2"), "900m of 1 requested");
    assert_eq!(bar("infra-1"), "0 of 4 requested");
    // The explanation shows the arithmetic.
    click(&root, "#cell-0-1");
    until("the resource lines", || {
        has(&root, ".explanation table.resources")
    })
    .await;
    let line = text(
        &root,
        ".explanation table.resources tr[data-resource=\"cpu\"]",
    );
    assert!(
        line.contains("500m")
            && line.contains("900m")
            && line.contains("−400m")
            && line.contains("Insufficient cpu"),
        "{line}"
    );
}

#[wasm_bindgen_test]
async fn the_placement_form_appends_a_pod_with_its_node_selector() {
    let root = mount().await;
    let set = |sel: &str, v: &str| {
        let i: web_sys::HtmlInputElement = q(&root, sel).dyn_into().expect("input");
        i.set_value(v);
        let init = web_sys::InputEventInit::new();
        init.set_bubbles(true);
        i.dispatch_event(
            &web_sys::InputEvent::new_with_event_init_dict("input", &init).expect("event"),
        )
        .expect("dispatch");
    };
    set(".add-placement .term-key", "dedicated");
    set(".add-placement .term-values", "payments");
    yew::platform::time::sleep(Duration::from_millis(20)).await;
    click(&root, ".add-placement button[type=submit]");
    until("a third pod row", || {
        count(&root, "table.matrix tbody tr") == 3
    })
    .await;
    let pods: HtmlTextAreaElement = q(&root, "#pods-text").dyn_into().expect("textarea");
    assert!(
        pods.value()
            .contains("nodeSelector:\n    \"dedicated\": \"payments\""),
        "{}",
        pods.value()
    );
    // Without a toleration it lands nowhere: the taint on the payments nodes, its
    // selector on general-1.
    assert_eq!(text(&root, "#cell-2-0 .score"), "taint");
    assert_eq!(text(&root, "#cell-2-2 .score"), "affinity");
}

fn set_input(root: &Element, sel: &str, v: &str) {
    let i: web_sys::HtmlInputElement = q(root, sel).dyn_into().expect("input");
    i.set_value(v);
    let init = web_sys::InputEventInit::new();
    init.set_bubbles(true);
    i.dispatch_event(
        &web_sys::InputEvent::new_with_event_init_dict("input", &init).expect("event"),
    )
    .expect("dispatch");
}

/// The text of `sel`, empty while it is not in the page (a view being redrawn).
fn text_now(root: &Element, sel: &str) -> String {
    root.query_selector(sel)
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

fn nodes_text(root: &Element) -> String {
    let ta: HtmlTextAreaElement = q(root, "#nodes-text").dyn_into().expect("textarea");
    ta.value()
}

#[wasm_bindgen_test]
async fn the_label_form_adds_and_removes_a_node_label_through_the_nodes_text() {
    let root = mount().await;
    set_input(&root, ".add-label .label-node", "general-1");
    set_input(&root, ".add-label .label-key", "disktype");
    set_input(&root, ".add-label .label-value", "ssd");
    // The form shows the line it will append, checked as kubectl checks it.
    until("the kubectl label line", || {
        has(&root, ".add-label .label-line")
            && text(&root, ".add-label .label-line") == "kubectl label nodes general-1 disktype=ssd"
    })
    .await;
    click(&root, ".add-label button[type=submit]");
    until(
        "the label in the Nodes text and on general-1's column",
        || {
            nodes_text(&root).ends_with("kubectl label nodes general-1 disktype=ssd\n")
                && text_now(&root, "table.matrix thead").contains("disktype=ssd")
        },
    )
    .await;
    // kubectl's output for the appended line.
    assert!(text(&root, ".kubectl").contains("node/general-1 labeled"));
    // The label is listed under the form; its remove button appends `disktype-`.
    let chip = ".add-label .label-chip[data-key=\"disktype\"] button";
    until("the new label listed for general-1", || has(&root, chip)).await;
    click(&root, chip);
    until("the label removed through the Nodes text", || {
        nodes_text(&root).ends_with("kubectl label nodes general-1 disktype-\n")
            && !text_now(&root, "table.matrix thead").contains("disktype=ssd")
    })
    .await;
    // A value kubectl refuses: its error, and nothing is appended.
    set_input(&root, ".add-label .label-key", "tier");
    set_input(&root, ".add-label .label-value", "a b");
    until("kubectl's error for the value", || {
        has(&root, ".add-label .label-error")
    })
    .await;
    let error = text(&root, ".add-label .label-error");
    assert!(
        error.contains("error: invalid label value: \"tier=a b\": a valid label must be an empty string or consist of alphanumeric characters"),
        "{error}"
    );
    let before = nodes_text(&root);
    click(&root, ".add-label button[type=submit]");
    assert_eq!(nodes_text(&root), before);
    assert!(!has(&root, ".add-label .label-line"));
    // Both lines are one block of kubectl commands in the blocks view.
    until("the kubectl block", || {
        text_now(&root, "#nodes-blocks").contains("kubectl taint/label: 2 kubectl label command(s)")
    })
    .await;
}

#[wasm_bindgen_test]
async fn each_block_says_what_it_was_read_as_and_what_was_read_from_it() {
    let root = mount().await;
    type_into(
        &root,
        "#pods-text",
        "NAME    READY   STATUS    RESTARTS   AGE   IP         NODE        NOMINATED NODE   READINESS GATES\nweb-1   1/1     Running   0          5m    10.0.0.4   general-1   <none>           <none>\nweb-2   1/1     Running   0          5m    10.0.0.5   general-1   <none>           <none>\nweb-3   0/1     Pending   0          5m    <none>     <none>      <none>           <none>\n",
    );
    until("the pods table as one block", || {
        text_now(&root, "#pods-blocks li").contains("kubectl get pods -o wide")
    })
    .await;
    assert_eq!(count(&root, "#pods-blocks li"), 1);
    let first = text(&root, "#pods-blocks li");
    assert!(
        first.contains("lines 1–4")
            && first.contains("kubectl get pods -o wide: 3 pod(s) (2 bound, 1 pending)"),
        "{first}"
    );
    type_into(
        &root,
        "#pods-text",
        "NAME   VALUE   GLOBAL-DEFAULT   AGE\nhigh   1000    false            3d\nlow    10      true             3d\n",
    );
    until("the PriorityClass table as a block", || {
        text_now(&root, "#pods-blocks li")
            .contains("kubectl get priorityclass: 2 PriorityClass(es)")
    })
    .await;
    // The first example's nodes: one YAML List of three nodes.
    assert_eq!(count(&root, "#nodes-blocks li[data-form=\"YAML\"]"), 1);
    assert!(text(&root, "#nodes-blocks li:nth-child(1)").contains("YAML: 3 node(s)"));
}

/// Sets a `<select>`'s value and sends the change event a user's pick sends.
fn choose(root: &Element, sel: &str, value: &str) {
    let s: HtmlSelectElement = q(root, sel).dyn_into().expect("select");
    s.set_value(value);
    assert_eq!(s.value(), value, "{sel} has no option {value}");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    s.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).expect("event"))
        .expect("dispatch");
}

/// Moves the What-if scrubber to second `at` (the input and change events of a drag).
fn scrub(root: &Element, at: i64) {
    let i: web_sys::HtmlInputElement = q(root, "input.wi-scrub").dyn_into().expect("range");
    i.set_value(&at.to_string());
    let init = web_sys::InputEventInit::new();
    init.set_bubbles(true);
    i.dispatch_event(
        &web_sys::InputEvent::new_with_event_init_dict("input", &init).expect("event"),
    )
    .expect("dispatch");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    i.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).expect("event"))
        .expect("dispatch");
}

/// `data-pod` of every element `sel` matches, in page order.
fn pods_of(root: &Element, sel: &str) -> Vec<String> {
    let Ok(list) = root.query_selector_all(sel) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .filter_map(|e| e.get_attribute("data-pod"))
        .collect()
}

/// Texts of every element `sel` matches.
fn texts(root: &Element, sel: &str) -> Vec<String> {
    let Ok(list) = root.query_selector_all(sel) else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.text_content())
        .collect()
}

/// `kubectl drain`'s lines as the What-if tab prints them (`   Ns  line`), as
/// `(second, line)`.
fn drain_lines(root: &Element) -> Vec<(i64, String)> {
    text_now(root, "pre.wi-drain")
        .lines()
        .filter_map(|l| {
            let (at, line) = l.trim_start().split_once("s  ")?;
            Some((at.parse().ok()?, line.to_string()))
        })
        .collect()
}

fn actions_text(root: &Element) -> String {
    let ta: HtmlTextAreaElement = q(root, "textarea.wi-actions").dyn_into().expect("textarea");
    ta.value()
}

/// The What-if tab's answer for the current action lines: the tab is idle and shows a
/// timeline whose summary contains `summary`.
async fn what_if_answer(root: &Element, summary: &str) {
    let deadline = js_sys::Date::now() + 20_000.0;
    while !(has(root, "section.whatif[aria-busy=\"false\"] .wi-result")
        && text_now(root, ".wi-summary").contains(summary))
    {
        assert!(
            js_sys::Date::now() < deadline,
            "timed out waiting for the What-if timeline with \"{summary}\"; the tab shows: {}",
            root.query_selector("section.whatif")
                .ok()
                .flatten()
                .map(|e| e.outer_html())
                .unwrap_or_else(|| "no What-if section".into())
                .chars()
                .take(3000)
                .collect::<String>()
        );
        yew::platform::time::sleep(Duration::from_millis(5)).await;
    }
}

const STOREFRONT: [&str; 3] = [
    "acme/storefront-7c9d8b6f4-k2x8p",
    "acme/storefront-7c9d8b6f4-q7m4z",
    "acme/storefront-7c9d8b6f4-w9tl5",
];
const CHECKOUT: &str = "acme/checkout-5f6d7c8b9-r4nvx";

#[wasm_bindgen_test]
async fn the_multi_tenant_example_drains_acme_1_onto_its_own_pool_and_one_eviction_waits() {
    let root = mount().await;
    load_example(&root, "multi-tenant").await;
    // The example opens the What-if tab on its drain.
    until("the What-if tab", || has(&root, "section.whatif")).await;
    assert_eq!(
        actions_text(&root).trim(),
        "at 0 drain acme-1 --ignore-daemonsets"
    );
    what_if_answer(&root, "Evicted 3, rescheduled 3, still Pending 0.").await;
    assert!(!has(&root, "ul.wi-pending li"));
    // Lanes: the three pods of acme-1 end terminating there; storefront's second
    // replica keeps running until 5 s, while the budget refuses its eviction.
    let lane = |node: &str, bar: &str| {
        pods_of(
            &root,
            &format!("div.lane[data-node=\"{node}\"] span.bar.{bar}"),
        )
    };
    let mut on_acme_1 = lane("acme-1", "terminating");
    on_acme_1.sort();
    assert_eq!(on_acme_1, [CHECKOUT, STOREFRONT[0], STOREFRONT[1]]);
    let waiting = q(
        &root,
        &format!(
            "div.lane[data-node=\"acme-1\"] span.bar.running[data-pod=\"{}\"]",
            STOREFRONT[1]
        ),
    );
    assert_eq!(
        waiting.get_attribute("title").as_deref(),
        Some(&*format!("{}  0s–5s", STOREFRONT[1]))
    );
    // Every replacement runs on another acme node: checkout's on acme-2 (beside
    // storefront's third replica), both storefront replacements on acme-3.
    let acme_2 = lane("acme-2", "running");
    assert_eq!(acme_2.len(), 2, "{acme_2:?}");
    assert!(acme_2.contains(&STOREFRONT[2].to_string()), "{acme_2:?}");
    assert!(
        acme_2
            .iter()
            .any(|p| p.starts_with("acme/checkout-") && p != CHECKOUT),
        "{acme_2:?}"
    );
    let acme_3 = lane("acme-3", "running");
    assert_eq!(acme_3.len(), 2, "{acme_3:?}");
    assert!(
        acme_3
            .iter()
            .all(|p| p.starts_with("acme/storefront-") && !STOREFRONT.contains(&p.as_str())),
        "{acme_3:?}"
    );
    // The other tenant's pool keeps its own pods only; the shared node and the Pending
    // lane stay empty.
    for node in ["globex-1", "globex-2"] {
        let pods = pods_of(&root, &format!("div.lane[data-node=\"{node}\"] span.bar"));
        assert_eq!(pods.len(), 1, "{node}: {pods:?}");
        assert!(pods[0].starts_with("globex/ledger-"), "{node}: {pods:?}");
    }
    assert!(pods_of(&root, "div.lane[data-node=\"shared-1\"] span.bar").is_empty());
    assert!(pods_of(&root, "div.lane.pending-lane span.bar").is_empty());
    // The scheduler's events: three replacements, each on acme-2 or acme-3.
    let scheduled = texts(&root, "details.wi-events tr[data-reason=\"Scheduled\"]");
    assert_eq!(scheduled.len(), 3, "{scheduled:?}");
    assert_eq!(
        scheduled
            .iter()
            .filter(|e| e.ends_with(" to acme-3"))
            .count(),
        2,
        "{scheduled:?}"
    );
    assert_eq!(
        scheduled
            .iter()
            .filter(|e| e.ends_with(" to acme-2"))
            .count(),
        1,
        "{scheduled:?}"
    );
    // kubectl drain's lines: refused by the budget at 0, retried at 5, drained at 35.
    let lines = drain_lines(&root);
    let refused = "error when evicting pods/\"storefront-7c9d8b6f4-q7m4z\" -n \"acme\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.";
    for expected in [
        (0, "node/acme-1 cordoned"),
        (0, refused),
        (5, "evicting pod acme/storefront-7c9d8b6f4-q7m4z"),
        (35, "pod/storefront-7c9d8b6f4-q7m4z evicted"),
        (35, "node/acme-1 drained"),
    ] {
        assert!(
            lines.iter().any(|(at, l)| (*at, l.as_str()) == expected),
            "{expected:?} in {lines:?}"
        );
    }
    assert_eq!(
        lines.last().map(|l| l.1.as_str()),
        Some("node/acme-1 drained")
    );
}

#[wasm_bindgen_test]
async fn the_scrubber_shows_the_waiting_eviction_still_running_then_terminating() {
    let root = mount().await;
    load_example(&root, "multi-tenant").await;
    what_if_answer(&root, "Evicted 3").await;
    let row = "table.wi-at-table tr[data-node=\"acme-1\"]";
    let chips = |terminating: bool| {
        let sel = if terminating {
            format!("{row} span.pod-chip.terminating")
        } else {
            format!("{row} span.pod-chip:not(.terminating)")
        };
        let mut v = texts(&root, &sel);
        v.sort();
        v
    };
    // At 3 s: acme-1 is cordoned, two pods are terminating, the one whose eviction the
    // budget refused still runs.
    scrub(&root, 3);
    until("the cluster at 3 s", || {
        text_now(&root, "table.wi-at-table caption") == "Cluster at 3 s" && chips(false).len() == 1
    })
    .await;
    assert!(text(&root, row).contains("SchedulingDisabled"));
    assert_eq!(chips(true), [CHECKOUT, STOREFRONT[0]]);
    assert_eq!(chips(false), [STOREFRONT[1]]);
    // At 6 s its retried eviction went through.
    scrub(&root, 6);
    until("the cluster at 6 s", || {
        text_now(&root, "table.wi-at-table caption") == "Cluster at 6 s" && chips(false).is_empty()
    })
    .await;
    assert_eq!(chips(true), [CHECKOUT, STOREFRONT[0], STOREFRONT[1]]);
    // At 40 s acme-1 is empty; the acme pool holds all four acme pods.
    scrub(&root, 40);
    until("the cluster at 40 s", || {
        text_now(&root, "table.wi-at-table caption") == "Cluster at 40 s" && chips(true).is_empty()
    })
    .await;
    let pool: usize = ["acme-2", "acme-3"]
        .iter()
        .map(|n| {
            count(
                &root,
                &format!("table.wi-at-table tr[data-node=\"{n}\"] span.pod-chip"),
            ) as usize
        })
        .sum();
    assert_eq!(pool, 4);
    assert_eq!(
        count(
            &root,
            "table.wi-at-table tr[data-node=\"shared-1\"] span.pod-chip"
        ),
        0
    );
}

#[wasm_bindgen_test]
async fn the_node_form_appends_action_lines_and_errors_and_pending_pods_are_shown() {
    let root = mount().await;
    load_example(&root, "multi-tenant").await;
    what_if_answer(&root, "Evicted 3").await;
    // Start over: no action lines, no timeline.
    type_into(&root, "textarea.wi-actions", "");
    until("the empty What-if tab", || {
        !has(&root, ".wi-result")
            && text_now(&root, "section.whatif").contains("Pick a node and an action")
    })
    .await;
    // Drain acme-2 at 10 s with the node form (its nodes come from the pasted cluster).
    until("acme-2 in the node picker", || {
        has(&root, "select.wi-node option[value=\"acme-2\"]")
    })
    .await;
    set_input(&root, "input.wi-at", "10");
    choose(&root, "select.wi-kind", "drain");
    choose(&root, "select.wi-node", "acme-2");
    // The form has re-rendered with the picks (the button's handler is the new one).
    until("the form with acme-2 picked", || {
        has(&root, "select.wi-node option[value=\"acme-2\"][selected]")
            && has(&root, "fieldset.drain-flags")
    })
    .await;
    click(&root, "button.wi-add");
    until("the appended line", || {
        actions_text(&root).trim() == "at 10 drain acme-2 --ignore-daemonsets"
    })
    .await;
    // acme-2's storefront replica goes to acme-3 (the emptiest acme node); checkout
    // stays on acme-1.
    what_if_answer(&root, "Evicted 1, rescheduled 1, still Pending 0.").await;
    let acme_3 = pods_of(&root, "div.lane[data-node=\"acme-3\"] span.bar.running");
    assert_eq!(acme_3.len(), 1, "{acme_3:?}");
    assert!(acme_3[0].starts_with("acme/storefront-"), "{acme_3:?}");
    assert!(drain_lines(&root).contains(&(
        10,
        "evicting pod acme/storefront-7c9d8b6f4-w9tl5".to_string()
    )));
    // A misspelt action: the error names the line and the word.
    type_into(
        &root,
        "textarea.wi-actions",
        "at 10 drain acme-2 --ignore-daemonsets\nat 20 drian acme-1\n",
    );
    until("the action line's error", || has(&root, ".wi-errors")).await;
    let error = text(&root, ".wi-errors");
    assert!(
        error.contains("line 2: unknown action \"drian\""),
        "{error}"
    );
    // The whole acme pool drained: nowhere is left for acme's pods, which stay Pending
    // with the scheduler's message, and the budget keeps a drain from finishing.
    type_into(
        &root,
        "textarea.wi-actions",
        "at 0 drain acme-1 --ignore-daemonsets\nat 0 drain acme-2 --ignore-daemonsets\nat 0 drain acme-3 --ignore-daemonsets\n",
    );
    until("pods left Pending", || {
        has(
            &root,
            "section.whatif[aria-busy=\"false\"] ul.wi-pending li",
        )
    })
    .await;
    let pending = texts(&root, "ul.wi-pending li");
    assert!(!pending.is_empty());
    for p in &pending {
        assert!(p.starts_with("acme/"), "{p}");
        assert!(
            p.contains("0/6 nodes are available:")
                && p.contains("node(s) were unschedulable")
                && p.contains("node(s) didn't match Pod's node affinity/selector"),
            "{p}"
        );
    }
    assert!(text(&root, ".wi-summary").contains("A drain had not finished."));
    assert!(
        pods_of(&root, "div.lane.pending-lane span.bar")
            .iter()
            .all(|p| p.starts_with("acme/"))
    );
}

/// The timeline tab's per-pod timelines, rendered as HTML (here on the page's own
/// thread, as the worker would): one figure per placed pod of the first example, and the
/// node-failure preset's narrative with the release's grace period.
#[wasm_bindgen_test]
async fn the_timeline_tab_shows_one_figure_per_placed_pod_and_the_failure_preset() {
    let root = mount().await;
    let pods = count(&root, "table.matrix tbody tr");
    click(&root, "#tab-timeline");
    let idle = "section.timeline-tab[aria-busy=\"false\"]";
    until("the per-pod timelines", || {
        has(
            &root,
            &format!("{idle} figure.timeline svg[role=\"img\"] desc"),
        )
    })
    .await;
    let figures = count(&root, "figure.timeline");
    let unplaced = count(&root, ".tl-out > p.muted");
    assert!(figures > 0, "no timeline figure");
    assert_eq!(figures + unplaced, pods, "one line per pod of the matrix");
    assert!(!has(&root, ".tl-out .narrative"));
    click(&root, "input[name=\"tl-mode\"]:not(:checked)");
    until("the node-failure narrative", || {
        has(&root, &format!("{idle} .tl-out .narrative"))
    })
    .await;
    assert!(
        text(&root, ".narrative").contains("(50 s)"),
        "{}",
        text(&root, ".narrative")
    );
    // The failed node is picked in the preset's form.
    let select: HtmlSelectElement = q(&root, ".timeline-tab form select")
        .dyn_into()
        .expect("select");
    assert!(!select.value().is_empty());
    assert!(
        text(&root, "figure.timeline figcaption").contains(&select.value()),
        "{}",
        text(&root, "figure.timeline figcaption")
    );
}
