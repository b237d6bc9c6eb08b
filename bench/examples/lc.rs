use charsight::detect::language_costs;
fn main() {
    for t in std::env::args().skip(1) {
        let c = language_costs(&t);
        println!("{t:?}: best {:?} en {:?} ko {:?}", c.best(), c.get("en"), c.get("ko"));
    }
}
