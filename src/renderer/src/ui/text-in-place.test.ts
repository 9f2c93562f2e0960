import { describe, expect, it } from 'vitest'
import { defineComponent, h, nextTick, ref, withDirectives } from 'vue'
import { mount } from '@vue/test-utils'
import { vTextInPlace } from './text-in-place'

function mountText(initial: string) {
  const text = ref(initial)
  const w = mount(
    defineComponent({
      setup: () => () => withDirectives(h('span'), [[vTextInPlace, text.value]]),
    }),
  )
  return { w, text, el: () => w.element as HTMLElement }
}

describe('v-text-in-place', () => {
  it('shows the text and changes it in the same Text node', async () => {
    const { w, text, el } = mountText('12 s ago')
    expect(el().textContent).toBe('12 s ago')
    const node = el().firstChild
    expect(node).toBeInstanceOf(Text)
    text.value = '3 min ago'
    await nextTick()
    expect(el().textContent).toBe('3 min ago')
    expect(el().firstChild).toBe(node)
    expect(el().childNodes).toHaveLength(1)
    w.unmount()
  })

  it('goes to no text and back, and puts right an element whose children changed under it', async () => {
    const { w, text, el } = mountText('a')
    text.value = ''
    await nextTick()
    expect(el().childNodes).toHaveLength(0)
    text.value = 'b'
    await nextTick()
    expect(el().textContent).toBe('b')
    // Something else put an element in it: the whole text is set again.
    el().append(document.createElement('i'))
    text.value = 'c'
    await nextTick()
    expect(el().textContent).toBe('c')
    expect(el().childNodes).toHaveLength(1)
    w.unmount()
  })
})
