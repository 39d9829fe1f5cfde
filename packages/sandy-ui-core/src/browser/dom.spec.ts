import { expect } from 'chai';
import { JSDOM } from 'jsdom';
import { domBuilder, DomFactory, setAttr } from './dom';

const ATTACK = '<img src=x onerror=alert(1)>';

describe('dom (the views\' element factory)', () => {
    let dom: JSDOM;
    let doc: Document;
    let h: DomFactory;

    beforeEach(() => {
        dom = new JSDOM('<!doctype html><html><body></body></html>');
        doc = dom.window.document;
        h = domBuilder(doc);
    });

    afterEach(() => dom.window.close());

    it('builds an element with classes, attributes, dataset, listeners and children', () => {
        let clicks = 0;
        const inner = h('span', { class: 'inner' }, 'x');
        const button = h('button', {
            class: ['a b', false, undefined, 'c'], type: 'button', 'aria-label': 'Save it', tabindex: -1, hidden: false,
            disabled: true, dataset: { scope: 'project', skipped: undefined }, on: { click: () => clicks++ }
        }, 'Save ', 3, null, false, [inner, ['!']]);
        expect(button.tagName).to.equal('BUTTON');
        expect([...button.classList]).to.deep.equal(['a', 'b', 'c']);
        expect(button.getAttribute('type')).to.equal('button');
        expect(button.getAttribute('aria-label')).to.equal('Save it');
        expect(button.tabIndex).to.equal(-1);
        expect(button.hasAttribute('hidden')).to.equal(false);
        expect(button.disabled).to.equal(true);
        expect(button.getAttribute('disabled')).to.equal('');
        expect(button.dataset.scope).to.equal('project');
        expect('skipped' in button.dataset).to.equal(false);
        expect(button.textContent).to.equal('Save 3x!');
        expect(button.lastChild!.textContent).to.equal('!');
        button.removeAttribute('disabled');
        button.click();
        expect(clicks).to.equal(1);
    });

    it('renders agent-controlled text as text, never as markup (children and attributes)', () => {
        const p = h('p', { class: 'hostile', title: ATTACK, 'aria-label': ATTACK, dataset: { key: ATTACK } }, ATTACK, h('b', null, `${ATTACK}&amp;<script>alert(2)</script>`));
        doc.body.append(p);
        expect(p.textContent).to.equal(`${ATTACK}${ATTACK}&amp;<script>alert(2)</script>`);
        expect(doc.querySelector('img')).to.equal(null);
        expect(doc.querySelector('script')).to.equal(null);
        expect(p.childElementCount).to.equal(1);
        expect(p.firstChild!.nodeType).to.equal(dom.window.Node.TEXT_NODE);
        expect(p.getAttribute('title')).to.equal(ATTACK);
        expect(p.dataset.key).to.equal(ATTACK);
        // The serialised page escapes it: the text can never turn into an element on a re-parse either.
        expect(new dom.window.XMLSerializer().serializeToString(p)).to.contain('&lt;img src=x onerror=alert(1)&gt;');
        expect(p.getAttributeNames().some(n => n.startsWith('on'))).to.equal(false);
    });

    it('refuses event-handler attributes, markup sinks, script URLs and executable elements', () => {
        expect(() => h('div', { onclick: 'alert(1)' })).to.throw(/event-handler attribute/);
        expect(() => h('img', { ONERROR: 'alert(1)' })).to.throw(/event-handler attribute/);
        expect(() => h('div', { innerHTML: ATTACK })).to.throw(/never set markup/);
        expect(() => h('iframe' as 'div')).to.throw(/never run or embed/);
        expect(() => h('script' as 'div', null, 'alert(1)')).to.throw(/never run or embed/);
        expect(() => h('a', { href: 'javascript:alert(1)' })).to.throw(/Refusing the URL/);
        expect(() => h('a', { href: ' \tJaVa\nScRiPt:alert(1)' })).to.throw(/Refusing the URL/);
        expect(() => h('a', { href: 'data:text/html,<script>alert(1)</script>' })).to.throw(/Refusing the URL/);
        expect(h('a', { href: '#' }).getAttribute('href')).to.equal('#');
        const div = h('div');
        expect(() => setAttr(div, 'onmouseover', 'alert(1)')).to.throw(/event-handler/);
        expect(div.getAttributeNames()).to.deep.equal([]);
    });

    it('setAttr sets, empties and removes', () => {
        const input = h('input');
        setAttr(input, 'aria-invalid', 'true');
        expect(input.getAttribute('aria-invalid')).to.equal('true');
        setAttr(input, 'readonly', true);
        expect(input.readOnly).to.equal(true);
        setAttr(input, 'aria-invalid', undefined);
        setAttr(input, 'readonly', false);
        expect(input.getAttributeNames()).to.deep.equal([]);
    });
});
