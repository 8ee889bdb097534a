//! Browser entry point. The same module also runs inside the parse worker, where there is
//! no window and nothing must render.

fn main() {
    if web_sys::window().is_some() {
        taintlab_web::start();
    }
}
